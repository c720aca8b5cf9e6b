@testable import SkateCore
import SkateTestSupport
import Testing

/// `IntKeyedTable`: the searches' sparse labels without a `Dictionary`. Checked against one on
/// seeded keys — growth, overwrites, misses, keys that collide in a small table.
@Suite struct IntKeyedTableTests {
    @Test func agreesWithADictionary() {
        var table = IntKeyedTable<Double>()
        var reference: [Int: Double] = [:]
        var rng = SplitMix64(seed: 16)
        for i in 0..<20_000 {
            // Mostly fresh keys, some repeated, some state-like (node << 3 | bucket).
            let key = i % 5 == 0 ? Int(rng.next() % 64) : (Int(rng.next() % 50_000) << 3 | Int(rng.next() % 8))
            let value = Double(i)
            table[key] = value; reference[key] = value
            #expect(table.count == reference.count)
        }
        for (k, v) in reference { #expect(table[k] == v) }
        for _ in 0..<2_000 {
            let miss = Int(rng.next() % 1_000_000) + 1_000_000
            #expect(table[miss] == nil)
        }
        #expect(!table.isEmpty && IntKeyedTable<Int>().isEmpty && IntKeyedTable<Int>()[0] == nil)
    }

    @Test func keysSharingASlotStaySeparate() {
        var t = IntKeyedTable<String>()
        // More keys than the initial slots: every one collides with another at some size.
        for k in 0..<(IntKeyedTable<String>.initialSlots * 3) { t[k * 1024] = "\(k)" }
        for k in 0..<(IntKeyedTable<String>.initialSlots * 3) { #expect(t[k * 1024] == "\(k)") }
        t[0] = "zero"
        #expect(t[0] == "zero" && t.count == IntKeyedTable<String>.initialSlots * 3)
    }
}
