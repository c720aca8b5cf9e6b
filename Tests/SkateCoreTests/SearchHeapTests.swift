@testable import SkateCore
import Testing

/// The router's open list (`SearchHeap`, a 4-ary heap since issue 30's fourth round) must give
/// its elements back in exactly sorted order: the route depends on the order states are settled
/// in, so a heap that pops a larger element first changes lines.
@Suite struct SearchHeapTests {
    /// Seeded inserts and pops interleaved, with many equal costs (the tie-break on the state
    /// number decides), against a sorted reference.
    @Test func popsInSortedOrder() {
        var rng = SplitMix64(seed: 0x5EA)
        var heap = SearchHeap<Search.QItem>()
        var reference: [Search.QItem] = []
        var popped = 0
        for round in 0..<2_000 {
            for _ in 0..<Int(rng.next() % 7) {
                // Few distinct costs: most comparisons fall to the state number.
                let item = Search.QItem(f: Double(rng.next() % 50) / 4, state: Int(rng.next() % 10_000))
                heap.insert(item)
                reference.append(item)
            }
            for _ in 0..<Int(rng.next() % 5) {
                guard let least = reference.min() else { break }
                reference.remove(at: reference.firstIndex(of: least)!)
                let got = heap.popMin()
                #expect(got == least, "round \(round): popped \(String(describing: got)), least was \(least)")
                popped += 1
            }
            #expect(heap.count == reference.count)
            #expect(heap.min == reference.min())
        }
        for least in reference.sorted() {
            #expect(heap.popMin() == least)
            popped += 1
        }
        #expect(heap.isEmpty && heap.popMin() == nil)
        #expect(popped > 1_000)
    }
}
