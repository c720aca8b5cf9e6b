/// The k-th smallest of a few values without sorting them all: the roughness engine takes two
/// medians of 30 windows every 100 ms block, and a sort of each was the largest share of its
/// block close in a profiled replay. Quickselect (Hoare's partition around the middle value) reads
/// each value about twice on average.
enum Selection {
    /// The value `values.sorted()[k]` would give (the same Double), in expected linear time;
    /// `values` is left reordered. Values must not be NaN.
    /// - Precondition: `0 <= k < values.count`.
    static func kth(_ values: inout [Double], _ k: Int) -> Double {
        precondition(k >= 0 && k < values.count, "k out of range")
        return values.withUnsafeMutableBufferPointer { v -> Double in
            var lo = 0, hi = v.count - 1
            while lo < hi {
                let pivot = v[(lo + hi) / 2]
                var i = lo, j = hi
                while i <= j {
                    while v[i] < pivot { i += 1 }
                    while pivot < v[j] { j -= 1 }
                    if i <= j {
                        v.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                // [lo, j] ≤ pivot ≤ [i, hi]; between them every value equals the pivot.
                if k <= j { hi = j } else if k >= i { lo = i } else { break }
            }
            return v[k]
        }
    }
}
