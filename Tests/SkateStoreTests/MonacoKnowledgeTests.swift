import Foundation
import SkateCore
@testable import SkateStore
import SkateTestSupport
import Testing

/// The store against the real compiled Monaco map (skipped when Maps/monaco.srmap is absent).
@Suite(.enabled(if: FileManager.default.fileExists(atPath: TestData.bundledMonaco),
                "Maps/monaco.srmap is absent: compile it with `skateroute import` to run the Monaco store test"))
struct MonacoKnowledgeTests {
    /// The point `fraction` of the way along edge `e`'s geometry.
    static func point(along e: Int, fraction: Double, in map: SkateMap) -> Coordinate {
        let g = map.geometry(ofEdge: e)
        var total = 0.0
        for i in 1..<g.count { total += Geo.distance(g[i - 1], g[i]) }
        var target = total * fraction
        for i in 1..<g.count {
            let d = Geo.distance(g[i - 1], g[i])
            if target <= d, d > 0 {
                let t = target / d
                return Coordinate(lat: g[i - 1].lat + t * (g[i].lat - g[i - 1].lat), lon: g[i - 1].lon + t * (g[i].lon - g[i - 1].lon))
            }
            target -= d
        }
        return g.last!
    }

    @Test func severePotholeLandsOnTheRightStreet() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        // The longest edge of Boulevard Albert 1er (the harbour-front boulevard).
        let candidates = (0..<map.edgeCount).filter { map.name(ofEdge: $0) == "Boulevard Albert 1er" && map.isRideable(edge: $0) }
        let e = try #require(candidates.max { map.edgeLength[$0] < map.edgeLength[$1] }, "no Boulevard Albert 1er in the map")
        let spot = Self.point(along: e, fraction: 0.5, in: map)
        let t = try TempStore()
        let zones = NoReportZones(map: map)
        #expect(zones.zone(containing: spot) == nil)
        let added = try t.store.addHazard(HazardReport(kind: .pothole, position: spot, severity: 3, reporter: "rider"), zones: zones, now: t0)
        let k = t.store.knowledge(for: map, now: t0 + hour)
        let onEdge = try #require(k.hazards.first { $0.value.contains { $0.id == added.state.hazard.id } })
        #expect(map.name(ofEdge: onEdge.key) == "Boulevard Albert 1er")
        let h = onEdge.value.first { $0.id == added.state.hazard.id }!
        #expect(h.severity == 3 && h.confidence > 0.5)
        if onEdge.key == e { #expect(abs(h.offset - Double(map.edgeLength[e]) / 2) < 2) }
        // A measurement keyed on that edge comes back on the same index.
        try t.store.recordMeasurement(EdgeKey(map: map, edge: e), rms: 0.22, at: t0)
        #expect(t.store.knowledge(for: map, now: t0 + hour).observations[e]?.rms == 0.22)
    }

    @Test func everyZoneRefusesReportsAtItsCentre() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let zones = NoReportZones(map: map)
        #expect(!zones.zones.isEmpty, "Monaco has schools and a hospital mapped as areas")
        var refused = 0
        for z in zones.zones {
            // The vertex average lies inside convex-ish school grounds; count those that do.
            let c = Coordinate(lat: z.ring.map(\.lat).reduce(0, +) / Double(z.ring.count),
                               lon: z.ring.map(\.lon).reduce(0, +) / Double(z.ring.count))
            guard NoReportZones.ring(z.ring, contains: c) else { continue }
            #expect(zones.zone(containing: c) != nil)
            refused += 1
        }
        #expect(refused > 0)
    }
}
