import Foundation
import SkateCore
@testable import SkateStore
import Testing

@Suite struct KnowledgeTests {
    @Test func snapshotFollowsEdgeKeysAcrossRebuilds() throws {
        let t = try TempStore(), s = t.store
        let original = TinyMap.standard()
        let rebuilt = TinyMap.standard(reversedOrder: true)  // same streets, edge indices 2, 1, 0
        let tiny = TinyMap()
        // Crusty measured on the footway B–D (edge 2 originally), a butter rating on B–C.
        try s.recordMeasurement(EdgeKey(map: original, edge: 2), rms: 0.3, at: t0 - hour)
        try s.rate(EdgeKey(map: original, edge: 1), rating: .butter, reporter: "a", now: t0 - hour)
        // A severe pothole 40 m along A–B, 3 m off the centreline; one far from every street.
        let pothole = try s.addHazard(HazardReport(kind: .pothole, position: tiny.at(40, 3), severity: 3, reporter: "a"), zones: nil, now: t0)
        try s.addHazard(HazardReport(kind: .gravel, position: tiny.at(40, 60), reporter: "a"), zones: nil, now: t0)

        let k1 = s.knowledge(for: original, now: t0)
        #expect(k1.observations.keys.sorted() == [1, 2])
        #expect(k1.observations[2]?.source == .measured && k1.observations[2]?.rms == 0.3)
        #expect(k1.observations[1]?.source == .rating && k1.observations[1]?.rms == SurfaceRating.butterRMS)
        #expect(Array(k1.hazards.keys) == [0])
        let h = try #require(k1.hazards[0]?.first)
        #expect(h.id == pothole.state.hazard.id && h.severity == 3 && h.kind == "pothole")
        #expect(abs(h.offset - 40) < 0.5)
        #expect(abs(h.confidence - pothole.state.confidence) < 1e-12)

        let k2 = s.knowledge(for: rebuilt, now: t0)
        #expect(k2.observations[0]?.rms == 0.3)        // B–D is edge 0 now
        #expect(k2.observations[1]?.source == .rating)  // B–C stays 1
        #expect(k2.observations[2] == nil)
        #expect(k2.hazards[2]?.first?.id == pothole.state.hazard.id)  // A–B is edge 2 now
        #expect(abs(k2.hazards[2]!.first!.offset - 40) < 0.5)

        // Two months on the pothole has expired and the observations have faded.
        let later = s.knowledge(for: original, now: t0 + 61 * day)
        #expect(later.hazards.isEmpty)
        #expect(later.observations[2]!.freshness < 0.06)
    }

    @Test func hazardsOnStepsAreNotSnappedToThem() throws {
        var t = TinyMap()
        let a = t.node(0, 0, osm: 1), b = t.node(100, 0, osm: 2), c = t.node(0, 15, osm: 3), d = t.node(100, 15, osm: 4)
        t.edge(a, b, way: 1, highway: .steps, flags: .steps)
        t.edge(c, d, way: 2)
        let map = t.finished()
        let st = try TempStore()
        try st.store.addHazard(HazardReport(kind: .wet, position: t.at(50, 2), reporter: "a"), zones: nil, now: t0)
        let k = st.store.knowledge(for: map, now: t0)
        #expect(k.hazards[0] == nil)
        #expect(k.hazards[1]?.count == 1)  // 13 m from the street beside the steps
        #expect(abs(k.hazards[1]![0].offset - 50) < 0.5)
    }
}
