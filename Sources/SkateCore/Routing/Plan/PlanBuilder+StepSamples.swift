import FoundationEssentials

extension PlanBuilder {
    /// Whether distances never decrease along `s` (false on a NaN): a profile's always do
    /// (`profile` adds non-negative leg fractions to non-decreasing leg starts).
    static func isNonDecreasing(_ s: [Double]) -> Bool { isNonDecreasing(s, in: s.indices) }

    /// Whether distances never decrease along `s[r]` (false on a NaN).
    static func isNonDecreasing(_ s: [Double], in r: Range<Int>) -> Bool {
        for i in r.dropFirst() where !(s[i - 1] <= s[i]) { return false }
        return true
    }

    /// The samples of the step `(a, b]` (metres from the start) — `s.indices.filter { s[$0] > a
    /// && s[$0] <= b }` — and the last sample at or before its start — `s.indices.last { s[$0]
    /// <= a }`. With `sorted` (`isNonDecreasing(s)`) both are found by bisection: scanning every
    /// sample for every step was a tenth of `steps`' instructions on a 15 km Heidelberg line
    /// (callgrind, issue 30 tenth round); without it, by the scans themselves.
    static func stepSamples(after a: Double, through b: Double, in s: [Double], sorted: Bool) -> (samples: [Int], before: Int?) {
        guard sorted else {
            return (s.indices.filter { s[$0] > a && s[$0] <= b }, s.indices.last(where: { s[$0] <= a }))
        }
        let lo = firstIndex(in: s, above: a), hi = firstIndex(in: s, above: b)
        return (hi > lo ? Array(lo..<hi) : [], lo > 0 ? lo - 1 : nil)
    }

    /// The first index of the non-decreasing `s` whose value is above `x` (`s.count` when none).
    static func firstIndex(in s: [Double], above x: Double) -> Int {
        var lo = 0, hi = s.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if s[mid] > x { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}
