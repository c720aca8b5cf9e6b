@testable import SkateImport
import Testing

/// `NodePositions` (issue 31): the importer's id → position store answers exactly as the
/// dictionary of `Double`s it replaced, in each of its forms.
@Suite("Node positions")
struct NodePositionsTests {
    /// A seeded id sequence: ascending ids with gaps, positions on the PBF's 1e-7° grid.
    static func nodes(count: Int, seed: UInt64) -> [(id: Int64, lat: Double, lon: Double)] {
        var state = seed
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        var id: Int64 = 1_000
        return (0..<count).map { _ in
            id += Int64(1 + next() % 50)
            let lat = Double(Int64(next() % 1_800_000_000) * 100 - 900_000_000 * 100) / 1e9
            let lon = Double(Int64(next() % 3_600_000_000) * 100 - 1_800_000_000 * 100) / 1e9
            return (id, lat, lon)
        }
    }

    /// The reference: the dictionary and arrays the compiler used before.
    static func check(_ store: NodePositions, against input: [(id: Int64, lat: Double, lon: Double)]) {
        var reference: [Int64: (Double, Double)] = [:]
        for n in input { reference[n.id] = (n.lat, n.lon) }
        for (id, (lat, lon)) in reference {
            guard let i = store[id] else { Issue.record("node \(id) lost"); return }
            #expect(store.lat(i) == lat && store.lon(i) == lon, "node \(id)")
        }
        // Ids between and around the stored ones are absent.
        for n in input.prefix(500) where reference[n.id + 1] == nil { #expect(store[n.id + 1] == nil) }
        #expect(store[Int64.min] == nil && store[Int64.max] == nil)
    }

    @Test(arguments: [1, 63, 64, 65, 5_000])
    func ascendingIdsOnTheGrid(count: Int) {
        let input = Self.nodes(count: count, seed: UInt64(count))
        var store = NodePositions()
        for n in input { store.add(id: n.id, lat: n.lat, lon: n.lon) }
        #expect(store.count == count)
        Self.check(store, against: input)
    }

    @Test func idsOutOfOrderAndRepeatedIds() {
        var input = Self.nodes(count: 3_000, seed: 7)
        input.swapAt(100, 2_000)
        input.append((input[10].id, 1.5, 2.5))        // a repeated id: the later position wins
        input.append((input[2_999].id, -1.5, -2.5))
        var store = NodePositions()
        for n in input { store.add(id: n.id, lat: n.lat, lon: n.lon) }
        Self.check(store, against: input)
    }

    @Test func coordinatesOffTheGridKeepEveryDigit() {
        var input = Self.nodes(count: 1_000, seed: 3)
        input[500].lat = 43.123456789   // XML with nine decimals
        input.append((input[999].id + 1, 0.1 + 0.2, -7.000000049))
        var store = NodePositions()
        for n in input { store.add(id: n.id, lat: n.lat, lon: n.lon) }
        Self.check(store, against: input)
    }

    @Test func copiesAddedAfterTheReading() {
        let input = Self.nodes(count: 200, seed: 11)
        var store = NodePositions()
        for n in input { store.add(id: n.id, lat: n.lat, lon: n.lon) }
        let copy: Int64 = -(input[50].id * 16 + 1)
        store.addCopy(id: copy, lat: input[50].lat, lon: input[50].lon)
        #expect(store.count == 201)
        Self.check(store, against: input)
        let i = store[copy]
        #expect(i == 200 && store.lat(i!) == input[50].lat && store.lon(i!) == input[50].lon)
    }
}
