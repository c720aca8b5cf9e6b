import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// Descents a skater enjoys, on the bundled Monaco map (issue 32): every listed run holds its
/// grade band on its own plan's profile and has no braking zone; the steep Jardin Exotique
/// descent is never listed.
@Suite struct DownhillTests {
    static let map: SkateMap? = try? MapFormat.load(path: TestData.bundledMonaco)
    static let planner: Planner? = map.map { Planner(map: $0) }
    static let jardinExotique = Coordinate(lat: 43.7341, lon: 7.4149)
    static let stadeLouisII = Coordinate(lat: 43.7260, lon: 7.4142)
    static let places: [Coordinate] = [
        jardinExotique, Coordinate(lat: 43.7396, lon: 7.4275), Coordinate(lat: 43.7485, lon: 7.4375), Coordinate(lat: 43.7310, lon: 7.4200),
    ]

    @Test func everyListedRunHoldsItsBandOnItsOwnProfileWithoutABrakingZone() throws {
        let planner = try #require(Self.planner, "Maps/monaco.srmap missing")
        var total = 0
        for at in Self.places {
            let runs = planner.downhills(near: at, radius: 3_000)
            total += runs.count
            #expect(runs.count <= DownhillRules.maxResults)
            for (i, r) in runs.enumerated() {
                let p = r.plan.profile
                let first = try #require(p.first), last = try #require(p.last)
                let length = last.distance - first.distance
                let mean = (last.elevation - first.elevation) / length * 100
                #expect(mean <= -2 && mean >= -7, "run \(i + 1) near \(at): mean \(mean) %")
                #expect(abs(mean - r.meanGradePct) < 0.05 && abs(length - r.length) < 1, "run \(i + 1): stated \(r.meanGradePct) % over \(r.length) m")
                #expect(abs((first.elevation - last.elevation) - r.drop) < 0.5)
                #expect(length >= DownhillRules.minLength)
                // No 30 m window at braking grade, and the plan agrees: no braking zone.
                for a in p.indices {
                    guard let b = p[a...].firstIndex(where: { $0.distance - p[a].distance >= 30 }) else { break }
                    let g = (p[b].elevation - p[a].elevation) / (p[b].distance - p[a].distance) * 100
                    #expect(g > -8, "run \(i + 1) near \(at): \(g) % at \(p[a].distance) m")
                    #expect(g >= r.steepestGradePct - 0.01, "steepest stated \(r.steepestGradePct) but \(g)")
                }
                let noBraking = r.plan.brakingZones.allSatisfy { $0.level != .braking }, legal = r.plan.legal && r.plan.forbidden.isEmpty
                #expect(noBraking && legal)
                #expect(r.roughness == .butter || r.roughness == .okay)
                if i > 0 { #expect(runs[i - 1].score >= r.score, "ranked best first") }
            }
        }
        #expect(total > 0, "Monaco has gentle descents")
    }

    @Test func theJardinExotiqueDescentIsNotListedAsGentle() throws {
        let planner = try #require(Self.planner, "Maps/monaco.srmap missing")
        let descent = try planner.plan(from: Self.jardinExotique, to: Self.stadeLouisII, mode: .smoothest)
        let braking = descent.brakingZones.filter { $0.level == .braking }
        #expect(!braking.isEmpty, "the descent needs braking")
        // The edges under its braking zones.
        var steepEdges = Set<Int>()
        var along = 0.0
        for l in descent.path.legs {
            let (a, b) = (along, along + l.length)
            along = b
            if braking.contains(where: { $0.start < b && $0.end > a && min(b, $0.end) - max(a, $0.start) >= 10 }) { steepEdges.insert(l.edge) }
        }
        #expect(!steepEdges.isEmpty)
        for r in planner.downhills(near: Self.jardinExotique, radius: 3_000) {
            let shared = r.path.legs.filter { steepEdges.contains($0.edge) }
            // A listed run may cross one of those streets, not ride down its braking stretch.
            let metres = shared.reduce(0) { $0 + $1.length }
            #expect(metres < 30, "run along \(r.streets) rides \(metres) m of the Jardin Exotique braking stretch")
        }
    }

    /// A run with no named street is named by what its ways are, as a step's text names an
    /// unnamed way, never "unnamed": the type of the way that carries most of its metres, or the
    /// square or park it crosses.
    @Test func unnamedRunsAreDescribedByTheirWays() throws {
        let planner = try #require(Self.planner, "Maps/monaco.srmap missing")
        let map = try #require(Self.map)
        let nouns = ["footway", "path", "cycleway", "pedestrian street", "square", "service road", "track", "passage", "platform",
                     "living street", "street", "road", "sidewalk", "crossing", "steps", "lift", "way under construction"]
        var unnamed = 0
        for at in Self.places {
            for r in planner.downhills(near: at, radius: 3_000) where r.streets.isEmpty {
                unnamed += 1
                let d = r.unnamedDescription
                #expect(r.displayName == d && !d.isEmpty)
                // A way type, or a named place of the map (a park or square near the run).
                let isNoun = nouns.contains { d == $0 || d.hasPrefix($0 + " along ") || d.hasPrefix($0 + " over ") }
                let isPlace = (0..<map.placeCount).contains { map.string(map.placeName[$0]) == d }
                #expect(isNoun || isPlace, "run described as '\(d)'")
            }
        }
        // Monaco lists unnamed runs (garden paths, sidewalks): the check is not vacuous.
        #expect(unnamed >= 1)
    }
}
