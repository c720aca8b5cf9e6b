import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// Routing on the bundled, real Monaco map (Maps/monaco.srmap, built from ../shared/data).
@Suite struct MonacoRoutingTests {
    static let map: SkateMap? = try? MapFormat.load(path: TestData.bundledMonaco)
    static let planner: Planner? = map.map { Planner(map: $0) }

    static let jardinExotique = Coordinate(lat: 43.7341, lon: 7.4149)
    static let stadeLouisII = Coordinate(lat: 43.7260, lon: 7.4142)
    static let pairs: [(Coordinate, Coordinate)] = [
        (jardinExotique, stadeLouisII),
        (Coordinate(lat: 43.7396, lon: 7.4275), Coordinate(lat: 43.7310, lon: 7.4200)),  // Port Hercule → Monaco-Ville
        (Coordinate(lat: 43.7485, lon: 7.4375), Coordinate(lat: 43.7380, lon: 7.4245)),  // Larvotto → Condamine
        (Coordinate(lat: 43.7440, lon: 7.4300), Coordinate(lat: 43.7280, lon: 7.4160)),  // Monte-Carlo → Fontvieille
        (Coordinate(lat: 43.7500, lon: 7.4390), Coordinate(lat: 43.7330, lon: 7.4180)),
    ]

    func lengthWeightedRMS(_ p: RoutePlan) -> Double {
        let d = p.steps.reduce(0.0) { $0 + $1.context.distance }
        return p.steps.reduce(0.0) { $0 + $1.context.roughnessRMS * $1.context.distance } / max(d, 1)
    }

    @Test func bundledMapLoadsAndIsConsistent() throws {
        let m = try #require(Self.map, "Maps/monaco.srmap missing")
        #expect(m.consistencyProblem() == nil)
        #expect(m.metadata.hasElevation)
        #expect(m.metadata.attribution.contains("OpenStreetMap"))
    }

    @Test func jardinExotiqueToStadeLouisIIHasABrakingZone() throws {
        let planner = try #require(Self.planner)
        let plan = try planner.plan(from: Self.jardinExotique, to: Self.stadeLouisII, mode: .smoothest)
        #expect(plan.gradeSummary.descentM > 60, "descent \(plan.gradeSummary.descentM)")
        #expect(!plan.brakingZones.isEmpty)
        #expect(!plan.gradeSummary.brakingSteps.isEmpty)
    }

    /// Smoothest is no rougher than the fast line, unless the fast line brakes more or needs
    /// more braking and caution metres together (issue 26: smoothest may not swap to a smoother
    /// line that brakes more, `SteepLineRule`).
    @Test func smoothestIsNoRougherThanFastMildUnlessTheFastLineBrakesMore() throws {
        let planner = try #require(Self.planner)
        let builder = PlanBuilder(map: planner.map, costing: planner.router(for: .smoothest).costing, knowledge: .empty)
        for (a, b) in Self.pairs {
            let s = try planner.plan(from: a, to: b, mode: .smoothest)
            let f = try planner.plan(from: a, to: b, mode: .fastMildRoughness)
            let ss = builder.steepMetres(s.path), fs = builder.steepMetres(f.path)
            let fastBrakesMore = fs.braking > ss.braking + SteepLineRule.swapSlackMetres
                || fs.braking + fs.caution > ss.braking + ss.caution + SteepLineRule.swapSlackMetres
            #expect(lengthWeightedRMS(s) <= lengthWeightedRMS(f) + 1e-9 || fastBrakesMore,
                    "\(a)→\(b): smoothest \(lengthWeightedRMS(s)) vs fast \(lengthWeightedRMS(f)); steep \(ss) vs \(fs)")
        }
    }

    @Test func everyModeGivesAContinuousRoute() throws {
        let planner = try #require(Self.planner)
        let map = try #require(Self.map)
        for (a, b) in Self.pairs {
            for mode in RideMode.allCases {
                let p = try planner.plan(from: a, to: b, mode: mode)
                // Legs join node to node.
                for (x, y) in zip(p.path.legs, p.path.legs.dropFirst()) {
                    let endX = x.reversed ? map.edgeFrom[x.edge] : map.edgeTo[x.edge]
                    let startY = y.reversed ? map.edgeTo[y.edge] : map.edgeFrom[y.edge]
                    #expect(endX == startY, "\(mode) legs do not join")
                }
                // The polyline is as long as the route (a gap would add length) and steps join end to start.
                let polyline = zip(p.geometry, p.geometry.dropFirst()).reduce(0.0) { $0 + Geo.distance($1.0, $1.1) }
                #expect(abs(polyline - p.distance) <= max(2, 0.01 * p.distance), "\(mode): polyline \(polyline) m vs route \(p.distance) m")
                for (x, y) in zip(p.steps, p.steps.dropFirst()) {
                    if let e = x.geometry.last, let f = y.geometry.first { #expect(Geo.distance(e, f) < 0.5) }
                }
                // Steps tile the route.
                let total = p.steps.reduce(0.0) { $0 + $1.context.distance }
                #expect(abs(total - p.distance) < 1)
                #expect(p.duration > p.distance / SkatePhysics.speedCap)
            }
        }
    }

    @Test func sameQueryGivesByteIdenticalJSON() throws {
        let planner = try #require(Self.planner)
        let a = PlanFormats.json(try planner.plan(from: Self.jardinExotique, to: Self.stadeLouisII, mode: .chillFewCrossings, alternatives: 2))
        let b = PlanFormats.json(try Planner(map: Self.map!).plan(from: Self.jardinExotique, to: Self.stadeLouisII, mode: .chillFewCrossings, alternatives: 2))
        #expect(a == b)
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(a.utf8)) as? [String: Any])
        for key in ["mode", "distance_m", "duration_s", "score", "grade_summary", "steps", "geometry", "alternatives"] {
            #expect(obj[key] != nil, "missing \(key)")
        }
        let step = try #require((obj["steps"] as? [[String: Any]])?.first)
        for key in ["index", "instruction", "maneuver", "street", "distance_m", "grade_pct", "braking_zone", "roughness_rms",
                    "roughness_class", "crossings_per_km", "has_bike_lane", "hazard_score", "legality_score", "too_fast"] {
            #expect(step[key] != nil, "step missing \(key)")
        }
    }

    @Test func placeSearchFindsRealNames() throws {
        let map = try #require(Self.map)
        let search = PlaceSearch(map: map)
        guard case .found(let stade) = search.resolve("stade louis ii") else { Issue.record("stade not found"); return }
        #expect(Geo.distance(stade.at, Self.stadeLouisII) < 400)
        // Accents and case do not matter.
        #expect(search.search("CAFE DE PARIS").first != nil)
        #expect(search.search("Église").first != nil || search.search("eglise").first != nil)
        guard case .notFound = search.resolve("zzqxv nowhere") else { Issue.record("garbage matched"); return }
        guard case .found = search.resolve("43.7341, 7.4149") else { Issue.record("lat,lon not parsed"); return }
    }
}
