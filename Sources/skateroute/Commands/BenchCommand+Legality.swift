import FoundationEssentials
import Glibc
import SkateCore

/// Legal-lines figures for the closing notes of issue 12: on seeded Monaco pairs, per mode, what
/// the access model changed against the rules before it (`CostRules.beforeAccessModel`) on the
/// same map and pairs.
struct LegalityBenchmark {
    let map: SkateMap
    let pairs: Int
    let seed: UInt64
    /// Print each route that walks stairs or breaks a rule, with the edges.
    var verbose = false

    /// What a set of routes rode.
    struct Tally {
        var plans = 0, failures = 0
        var distance = 0.0, forbidden = 0.0, stairs = 0.0, penalisedArterial = 0.0
        var lifts = 0, escalators = 0, routesWithForbidden = 0

        mutating func add(_ p: RoutePlan, map: SkateMap) {
            plans += 1
            distance += p.distance
            var forbiddenHere = 0.0
            for leg in p.path.legs {
                let f = map.flags(ofEdge: leg.edge)
                let d = AccessModel.decision(of: f)
                if d.accessClass == .forbidden { forbiddenHere += leg.length }
                if d.accessClass == .penalised && d.reason.isArterial { penalisedArterial += leg.length }
                if f.contains(.steps) { stairs += leg.length }
                if f.contains(.connector) { if map.highway(ofEdge: leg.edge) == .elevator { lifts += 1 } else { escalators += 1 } }
            }
            forbidden += forbiddenHere
            if forbiddenHere > 0 { routesWithForbidden += 1 }
        }

        var line: String {
            String(printf: "%6.1f km, forbidden %5.0f m (%d routes), stairs %4.0f m, penalised arterials %5.0f m, lifts %d, escalators %d",
                   distance / 1000, forbidden, routesWithForbidden, stairs, penalisedArterial, lifts, escalators)
        }
    }

    /// Seeded origin/destination pairs on legal, rideable ways of the main network.
    static func pairs(map: SkateMap, components: ConnectedComponents, count: Int, seed: UInt64) -> [(Coordinate, Coordinate)] {
        var rng = SplitMix64(seed: seed)
        let ends = (0..<map.edgeCount).filter {
            let f = map.flags(ofEdge: $0)
            return components.isMain(edge: $0) && map.isRideable(edge: $0) && !f.contains(.connector)
                && AccessModel.decision(of: f).accessClass != .forbidden
        }
        guard !ends.isEmpty else { return [] }
        var out: [(Coordinate, Coordinate)] = []
        while out.count < count {
            let a = ends[Int(rng.next() % UInt64(ends.count))], b = ends[Int(rng.next() % UInt64(ends.count))]
            let ca = map.coordinate(ofNode: Int(map.edgeFrom[a])), cb = map.coordinate(ofNode: Int(map.edgeTo[b]))
            // Pairs closer than a block say nothing about lines.
            if Geo.distance(ca, cb) >= 300 { out.append((ca, cb)) }
        }
        return out
    }

    func run() {
        let now = Planner(map: map)
        let before = Planner(map: map, knowledge: .empty, table: now.table, rules: .beforeAccessModel)
        let od = Self.pairs(map: map, components: now.components, count: pairs, seed: seed)
        print("legal lines: \(od.count) seeded pairs (--legal-seed \(seed)), rules before the access model vs now")
        var sumBefore = Tally(), sumNow = Tally()
        for mode in RideMode.allCases {
            var b = Tally(), n = Tally()
            for (x, y) in od {
                if let p = try? before.plan(from: x, to: y, mode: mode) {
                    b.add(p, map: map)
                    if verbose { describe(p, from: x, to: y, label: "before") }
                } else { b.failures += 1 }
                if let p = try? now.plan(from: x, to: y, mode: mode) {
                    n.add(p, map: map)
                    if verbose { describe(p, from: x, to: y, label: "now") }
                } else { n.failures += 1 }
            }
            print("  \(mode.rawValue):")
            print("    before " + b.line)
            print("    now    " + n.line + String(printf: " — distance ×%.3f", b.distance > 0 ? n.distance / b.distance : 0))
            sumBefore.distance += b.distance; sumNow.distance += n.distance
            sumBefore.forbidden += b.forbidden; sumNow.forbidden += n.forbidden
        }
        print(String(printf: "legal lines all modes: forbidden %.0f m before → %.0f m now; distance ×%.3f", sumBefore.forbidden, sumNow.forbidden,
                     sumBefore.distance > 0 ? sumNow.distance / sumBefore.distance : 0))
    }

    func describe(_ p: RoutePlan, from x: Coordinate, to y: Coordinate, label: String) {
        var parts: [String] = []
        for leg in p.path.legs {
            let f = map.flags(ofEdge: leg.edge)
            if f.contains(.steps) || AccessModel.decision(of: f).accessClass == .forbidden {
                let c = map.coordinate(ofNode: Int(map.edgeFrom[leg.edge]))
                parts.append(String(printf: "%@ %.0f m way %lld at %.5f,%.5f", f.contains(.steps) ? "steps" : "forbidden", leg.length, map.edgeWayId[leg.edge], c.lat, c.lon)
                             + (map.name(ofEdge: leg.edge).isEmpty ? "" : " (\(map.name(ofEdge: leg.edge)))"))
            }
        }
        guard !parts.isEmpty else { return }
        print(String(printf: "      %@ %.5f,%.5f → %.5f,%.5f (%.0f m): ", label, x.lat, x.lon, y.lat, y.lon, p.distance) + parts.joined(separator: "; "))
    }

    /// Routing time (ms) per plan with the access model, all modes, on the same pairs: p50 / p90.
    func timing() -> (p50: Double, p90: Double) {
        let planner = Planner(map: map)
        let od = Self.pairs(map: map, components: planner.components, count: pairs, seed: seed)
        var t: [Double] = []
        for mode in RideMode.allCases {
            let router = planner.router(for: mode)
            for (a, b) in od {
                let s = BenchCommand.now()
                _ = try? planner.plan(from: try router.snap(a), to: try router.snap(b), router: router, mode: mode)
                t.append(BenchCommand.now() - s)
            }
        }
        return (BenchCommand.percentile(t, 0.5) * 1000, BenchCommand.percentile(t, 0.9) * 1000)
    }
}
