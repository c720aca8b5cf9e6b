import Foundation
@testable import SkateRide
import Testing

/// The replay's shortcuts give the very numbers the plain computations gave (issue 28, replay
/// speed): a selection instead of a sort for the engine's medians, and the strike fit's weights
/// worked out once per rate instead of per onset tried.
@Suite struct ReplayShortcutTests {
    @Test func selectionGivesTheSortedValue() {
        var rng = SeededGenerator(seed: 28)
        for n in [1, 2, 3, 5, 6, 29, 30, 31, 100] {
            for round in 0..<40 {
                // Few distinct values in half the rounds: ties around the middle.
                var v = (0..<n).map { _ in round % 2 == 0 ? Double.random(in: 0...1, using: &rng) : Double(Int.random(in: 0...3, using: &rng)) }
                let sorted = v.sorted()
                let k = Int.random(in: 0..<n, using: &rng)
                let got = Selection.kth(&v, k)
                #expect(got == sorted[k], "n \(n) k \(k): \(got) vs \(sorted[k])")
                #expect(v.sorted() == sorted, "the values themselves must stay")
            }
        }
    }

    /// The fit as it was written before the weights were tabled: two cosines per sample and onset.
    static func directStrike(value: (Int) -> Double, range: ClosedRange<Int>, peak: Int, sampleRate: Double) -> ImpactSize.Fit? {
        let width = RoughnessBands.referenceImpactSeconds * sampleRate
        let lo = max(range.lowerBound, peak - Int((ImpactSize.levelBefore * sampleRate).rounded())),
            hi = min(range.upperBound, peak + Int((ImpactSize.levelAfter * sampleRate).rounded()))
        guard lo <= hi else { return nil }
        let level = (lo...hi).map(value).sorted()[(hi - lo + 1) / 2]
        let steps = Double(ImpactSize.onsetSteps)
        let first = Int((-ImpactSize.onsetBefore * sampleRate * steps).rounded(.down))
        let last = Int((ImpactSize.onsetAfter * sampleRate * steps).rounded(.up))
        let k = Double.pi / width
        var bestScore = 0.0, best: ImpactSize.Fit?
        for step in first...last {
            let onset = Double(peak) + Double(step) / steps
            let i0 = Int(onset.rounded(.down)) + 1, i1 = Int((onset + width).rounded(.up))
            guard i0 >= range.lowerBound, i1 <= range.upperBound, i0 <= i1 else { continue }
            let before = i0 - 1 >= range.lowerBound ? min(0, value(i0 - 1) - level) : 0
            let after = i1 + 1 <= range.upperBound ? min(0, value(i1 + 1) - level) : 0
            var xs = 0.0, ss = 0.0
            for i in i0...i1 {
                let a = max(onset, Double(i - 1)), b = min(onset + width, Double(i))
                guard b > a else { continue }
                let t = (cos(k * (a - onset)) - cos(k * (b - onset))) / k
                var x = value(i) - level
                let fb = min(1, max(0, onset - Double(i - 1))), fa = min(1, max(0, Double(i) - onset - width))
                if fb > 0 { x -= before * fb * fb / (2 * fb + 1) }
                if fa > 0 { x -= after * fa * fa / (2 * fa + 1) }
                xs += x * t
                ss += t * t
            }
            guard ss > 0, xs > 0 else { continue }
            let score = xs * xs / ss
            if score > bestScore { bestScore = score; best = ImpactSize.Fit(amplitude: xs / ss, onset: onset) }
        }
        return best
    }

    @Test func tabledStrikeWeightsFitWhatTheDirectFormulaFits() throws {
        var rng = SeededGenerator(seed: 15)
        for rate in [40.0, 50, 100, 120, 200] {
            // Rolling noise with a drop and a strike written in, far into a ride (large indices).
            let n = Int(2 * rate), base = 700_000
            var v = (0..<n).map { _ in 1 + 0.05 * Double.random(in: -1...1, using: &rng) }
            let peak = n / 2
            for i in (peak - Int(0.06 * rate))..<(peak - 1) { v[i] -= 0.6 }
            v[peak - 1] += 1.2; v[peak] += 2.5
            let value: (Int) -> Double = { v[$0 - base] }
            var scratch: [Double] = []
            let tabled = try #require(ImpactSize.strike(value: value, range: base...(base + n - 1), peak: base + peak,
                                                        weights: ImpactSize.Weights(sampleRate: rate), scratch: &scratch))
            let direct = try #require(Self.directStrike(value: value, range: base...(base + n - 1), peak: base + peak, sampleRate: rate))
            // Bit for bit where the strike is a whole number of eighth samples wide (50, 100, 200 Hz).
            let exact = (RoughnessBands.referenceImpactSeconds * rate * 8).rounded() == RoughnessBands.referenceImpactSeconds * rate * 8
            if exact {
                #expect(tabled == direct, "\(rate) Hz: \(tabled) vs \(direct)")
            } else {
                #expect(tabled.onset == direct.onset && abs(tabled.amplitude - direct.amplitude) <= 1e-12 * direct.amplitude, "\(rate) Hz: \(tabled) vs \(direct)")
            }
        }
    }
}
