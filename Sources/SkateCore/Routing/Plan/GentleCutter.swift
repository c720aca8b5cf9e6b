import FoundationEssentials

/// `PlanBuilder.gentleCut` for the clean pieces of one sample range, asked in order of their
/// start, in O(1) amortised per sample instead of a scan of each piece (~12 samples per start on
/// flat ground, where pieces start one sample apart): the two scans were half of `brakingZones`'
/// instructions on a 15 km Heidelberg line (callgrind, issue 30 tenth round).
///
/// Exactly `gentleCut`'s answers, on distances that never decrease and finite values (the caller
/// checks; `gentleCut` itself reads anything): `gentleCut` from `p` looks for the first sample
/// `j` for which the minimum of h = e − g·s over the window [p, R(j)) — the samples at least
/// `gentleSplitLength` before `j`, capped at `j` — is below h(j). That window only shrinks as
/// `p` grows, so a `j` that failed for an earlier start fails for every later one: the search
/// resumes at the last `j`, and the window's minimum is kept in a monotone queue (the same
/// values, so the same minimum) as both its ends move forward.
struct GentleCutter {
    let s: [Double], e: [Double]
    /// `gentleGradePct` as a fraction (as `gentleCut` computes it).
    private let g = ZoneRules.gentleGradePct / 100
    /// One past the range's last sample.
    let hi: Int
    /// The next sample to enter the window.
    private var lo: Int
    /// The first candidate `j` not known to fail.
    private var j: Int
    /// Window samples whose h increases from `head` on: `queue[head]` holds the window's minimum.
    private var queue: [Int] = []
    private var head = 0

    init(s: [Double], e: [Double], from p: Int, to hi: Int) {
        self.s = s; self.e = e; self.hi = hi
        lo = p; j = p + 1
        queue.reserveCapacity(64)
    }

    @inline(__always) private func h(_ k: Int) -> Double { e[k] - g * s[k] }

    /// `PlanBuilder.gentleCut(s:e:from:p,to:hi)`; `p` never less than the last call's.
    mutating func cut(from p: Int) -> (last: Int, next: Int)? {
        while head < queue.count && queue[head] < p { head += 1 }
        if lo < p { lo = p }
        if j < p + 1 { j = p + 1 }
        while j < hi {
            while lo < j && s[lo] <= s[j] - ZoneRules.gentleSplitLength + 1e-6 {
                let hl = h(lo)
                while queue.count > head && h(queue[queue.count - 1]) >= hl { queue.removeLast() }
                queue.append(lo)
                lo += 1
            }
            let hj = h(j)
            if head < queue.count && h(queue[head]) < hj - ZoneRules.eps {
                // As `gentleCut`: the last window sample from which the stretch to j is gentle.
                var last = lo - 1
                while last > p && !(h(last) < hj - ZoneRules.eps) { last -= 1 }
                return (j - 1, last + 1)
            }
            j += 1
        }
        return nil
    }
}
