import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// Map arrays view the mapped file after a load, and behave like value arrays: a write copies,
/// never touching the file or other copies.
@Suite struct FlatArrayTests {
    @Test func ownedArraysBehaveLikeArrays() {
        var a: FlatArray<Int32> = [1, 2, 3]
        a.append(4)
        a.append(contentsOf: [5, 6])
        a[0] = 10
        #expect(a.array == [10, 2, 3, 4, 5, 6] && a.count == 6 && !a.isMapped)
        let b = a
        a[1] = 20
        #expect(b[1] == 2, "copies are independent")
        #expect(a.subarray(1..<3).array == [20, 3])
        #expect(Array(a[2..<4]) == [3, 4])
        #expect(FlatArray(repeating: Float(7), count: 3) == [7, 7, 7])
    }

    @Test func loadedMapsViewTheFileAndCopyOnWrite() throws {
        let path = TestData.bundledMonaco
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var map = try MapFormat.load(path: path)
        #expect(map.nodeLat.isMapped && map.viaOffsetLon.isMapped && map.grid.cellEdges.isMapped)
        let derived = try #require(map.derived)
        #expect(derived.landmarkCosts.isMapped)
        let copy = map
        let old = map.edgeLength[5]
        map.edgeLength[5] = old + 100
        #expect(!map.edgeLength.isMapped && map.edgeLength[5] == old + 100)
        #expect(copy.edgeLength.isMapped && copy.edgeLength[5] == old, "the other copy still reads the file")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file is never written")
        // A view of part of a mapped array is itself a view with the same elements.
        let part = derived.landmarkCosts.subarray(10..<20)
        #expect(part.isMapped && part.array == Array(derived.landmarkCosts[10..<20]))
    }

    /// A copying load owns its arrays (long-running processes use it) and equals the mapped one.
    @Test func copyingLoadOwnsItsArrays() throws {
        let mapped = try MapFormat.load(path: TestData.bundledMonaco)
        let copied = try MapFormat.load(path: TestData.bundledMonaco, copying: true)
        #expect(!copied.nodeLat.isMapped && !copied.grid.cellEdges.isMapped && copied.derived?.landmarkCosts.isMapped == false)
        #expect(copied.nodeLat == mapped.nodeLat && copied.adjacency == mapped.adjacency && copied.derived == mapped.derived)
    }

    /// Dropping every reference to a loaded map unmaps the file; a fresh load still reads it.
    @Test func reloadingAfterRelease() throws {
        for _ in 0..<3 {
            let m = try MapFormat.load(path: TestData.bundledMonaco)
            #expect(m.edgeCount > 6000)
        }
    }
}
