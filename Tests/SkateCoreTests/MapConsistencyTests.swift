import Foundation
@testable import SkateCore
import SkateTestSupport
import Testing

/// The structural checks every map load runs (`SkateMap.consistencyProblem`), one damaged array
/// at a time: each is refused with its own line, and the bundled map as shipped passes. They
/// were rewritten as min/max reductions over raw buffers (issue 16), so each branch is checked.
@Suite struct MapConsistencyTests {
    func map() throws -> SkateMap {
        try MapFormat.load(path: TestData.bundledMonaco, copying: true)
    }

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func shippedMapPasses() throws {
        #expect(try map().consistencyProblem() == nil)
    }

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func eachDamageIsNamed() throws {
        let m = try map()
        func damaged(_ change: (inout SkateMap) -> Void) -> String? {
            var x = m
            change(&x)
            return x.consistencyProblem()
        }
        let last = m.edgeCount - 1
        #expect(damaged { $0.edgeLength[last] = -1 } == "edge \(last) has an impossible length")
        #expect(damaged { $0.edgeLength[3] = .nan } == "edge 3 has an impossible length")
        #expect(damaged { $0.nodeLat[7] = 90.5 } == "node 7 lies off the globe")
        #expect(damaged { $0.nodeLon[m.nodeCount - 1] = -180.25 } == "node \(m.nodeCount - 1) lies off the globe")
        #expect(damaged { $0.useAbsoluteViaPoints(); $0.nodeLat[2] = .nan } == "node 2 lies off the globe", "NaN switches the array to Doubles")
        #expect(damaged { $0.nodeLat[2] = .nan } == "via offsets need fixed-point nodes", "offsets add to Int32 node coordinates")
        #expect(damaged { $0.useAbsoluteViaPoints(); $0.viaLon[5] = 181 } == "a shape point lies off the globe")
        #expect(damaged { $0.edgeFrom[last] = UInt32(m.nodeCount) } == "edge \(last) points past the nodes")
        #expect(damaged { $0.edgeName[0] = UInt32(m.stringCount) } == "edge 0 has a bad name")
        #expect(damaged { $0.adjacency[0] = UInt32(m.edgeCount) << 1 } == "adjacency points past the edges")
        #expect(damaged { $0.grid.cellEdges[0] = UInt32(m.edgeCount) } == "grid points past the edges")
        #expect(damaged { $0.adjStart[1] = $0.adjStart[2] + 1 } == "bad adjacency offsets")
        #expect(damaged { $0.edgeViaStart[2] = $0.edgeViaStart[1] &- 1 } == "bad geometry offsets", "via offsets never decrease")
        #expect(damaged { $0.viaLat = [1]; $0.viaLon = [1] } == "geometry arrays differ", "via points in one form only")
    }
}
