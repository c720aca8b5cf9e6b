@testable import SkateCore
import SkateTestSupport
import Testing

/// `ConnectedComponents` takes the main network from a map file's first landmark instead of a
/// pass over every node (issue 31): the same component, the same `isMain` on every edge, as the
/// pass and as the union–find of a map without its derived block.
@Suite struct ConnectedComponentsTests {
    @Test func theFirstLandmarkNamesTheComponentThePassFinds() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let d = try #require(map.derived)
        #expect(d.landmarks.count == Landmarks.count)
        let fromFile = ConnectedComponents(map: map)
        #expect(fromFile.mainRoot == ConnectedComponents.scannedMainRoot(sizes: d.componentSize))
        var plain = map
        plain.derived = nil  // union–find and the pass, on first use
        let computed = ConnectedComponents(map: plain)
        #expect(fromFile.mainRoot == computed.mainRoot)
        var differ = 0
        for e in 0..<map.edgeCount where fromFile.isMain(edge: e) != computed.isMain(edge: e) { differ += 1 }
        #expect(differ == 0, "\(differ) edges main in one and not the other")
        for n in 0..<map.nodeCount where fromFile.size(ofNode: n) != computed.size(ofNode: n) { differ += 1 }
        #expect(differ == 0, "\(differ) nodes in components of other sizes")
    }
}
