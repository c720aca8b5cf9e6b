import Foundation
@testable import SkateRide
import Testing

/// Issue 28: an impact reads the same at 50, 100 and 200 Hz. Property-style: seeded streams of
/// ISO 8608 A/B rolling at 4 m/s (the same road at every rate: `VibrationSynthesizer` draws its
/// texture from the seed, not the rate) with hits, potholes and bumps written in as a sensor with
/// an anti-alias filter sees them (half-sines averaged over each sample interval,
/// `ImpactKindEvaluationTests.halfSine`). Every impact that is an event at every rate must be of
/// the same kind there, with sizes that agree (`RoughnessBands.sizesAgree`: each within
/// `RoughnessBands.impactRateTolerance` of the middle reading)
/// Whether an impact is an event at all must not depend on the rate either (issue 28: the rule
/// reads the fitted strike; 1.5–2 g lone hits were events at some rates only under the band rule).
///
/// The sizes keep clear of the kind rule's own edges by more than the tolerance (a hit without
/// a drop at 1.5–2.0 g or 3.2–5 g, never within 20 % of `ImpactKindRules.crackMaxPeak`; drops of
/// 0.5–1 g, twice `ImpactKindRules.minDrop` and more): an impact sitting on an edge may fall
/// either side at any one rate, which says nothing about the rate. Each run prints its seeds;
/// `IMPACT_RATE_SEED=<n> swift test --filter ImpactRateTests` replays one.
@Suite struct ImpactRateTests {
    static let rates: [Double] = [50, 100, 200]
    static let defaultSeeds: [UInt64] = [11, 12, 13, 14, 15, 16]
    static let perStream = 12

    enum Shape: String, CaseIterable { case hit, pothole, bump }
    struct Injected { var t: Double; var shape: Shape; var hit: Double; var drop: Double }

    /// One seeded stream at `rate`: rolling with `perStream` impacts 2.5–3 s apart.
    static func stream(seed: UInt64, rate: Double) -> (samples: [MotionSample], truth: [Injected]) {
        var rng = SeededGenerator(seed: seed)
        func u(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * rng.nextUnit() }
        let road: ISO8608.RoadClass = rng.nextUnit() < 0.5 ? .A : .B
        var vib = VibrationSynthesizer(roadClass: road, seed: seed, sampleRate: rate)
        var s = vib.samples(duration: 3 + Double(perStream) * 3 + 2, speed: 4)
        var truth: [Injected] = []
        var t = 3.0
        for k in 0..<perStream {
            t += u(2.5, 3)
            let shape = Shape.allCases[(k + Int(seed)) % Shape.allCases.count]
            // A hit alone is a crack under 2.5 g and a bump from it: stay 20 % clear of the edge.
            let hit = shape == .hit ? (rng.nextUnit() < 0.5 ? u(1.5, 2.0) : u(3.2, 5)) : u(1.5, 5)
            let drop = u(0.5, 1), width = u(0.04, 0.1)
            switch shape {
            case .hit:
                ImpactKindEvaluationTests.halfSine(&s, rate: rate, start: t, width: 0.015, amplitude: hit)
            case .pothole:
                ImpactKindEvaluationTests.halfSine(&s, rate: rate, start: t - width, width: width, amplitude: -drop)
                ImpactKindEvaluationTests.halfSine(&s, rate: rate, start: t, width: 0.015, amplitude: hit)
            case .bump:
                ImpactKindEvaluationTests.halfSine(&s, rate: rate, start: t, width: 0.015, amplitude: hit)
                ImpactKindEvaluationTests.halfSine(&s, rate: rate, start: t + 0.015 + u(0, 0.02), width: width, amplitude: -drop)
            }
            truth.append(Injected(t: t, shape: shape, hit: hit, drop: shape == .hit ? 0 : drop))
        }
        return (s, truth)
    }

    /// The seeds of this run: `IMPACT_RATE_SEED` when set, else the fixed list.
    static var seeds: [UInt64] {
        if let v = ProcessInfo.processInfo.environment["IMPACT_RATE_SEED"], let n = UInt64(v) { return [n] }
        return defaultSeeds
    }

    /// What the engine reported as the size before `ImpactSize` (for the printed comparison): the
    /// event band's largest sample over the band's gain for the reference strike
    /// (`RoughnessBands.impactGain`), for a sensor lying flat (vertical = az less the first az),
    /// taken over 0.2 s from the strike: the old reading without its block boundary, which could
    /// only cut it lower.
    static func bandPeak(_ s: [MotionSample], rate: Double, at t: Double) -> Double {
        let bands = RoughnessBands(sampleRate: rate)
        var f = BandPass(low: bands.events.low, high: bands.events.high, sampleRate: rate)
        var out = 0.0
        for x in s {
            let y = f.process(x.az - s[0].az)
            if x.t >= t - 0.02, x.t <= t + 0.18 { out = max(out, abs(y)) }
            if x.t > t + 0.18 { break }
        }
        return out / bands.impactGain
    }

    @Test func anImpactReadsTheSameAtFiftyHundredAndTwoHundredHertz() throws {
        let tolerance = RoughnessBands.impactRateTolerance
        var worst = 0.0, compared = 0, kindsAgree = 0, over = 0, over15 = 0, partial = 0, worstFromMiddle = 0.0
        var oldWorst = 0.0, oldCompared = 0, oldOver = 0, oldOver15 = 0
        for seed in Self.seeds {
            print("[impact rates] seed \(seed) (replay: IMPACT_RATE_SEED=\(seed) swift test --filter ImpactRateTests)")
            var found: [Double: [RoughnessEvent?]] = [:]
            var before: [Double: [RoughnessEvent?]] = [:]
            var truth: [Injected] = []
            for rate in Self.rates {
                let (s, tr) = Self.stream(seed: seed, rate: rate)
                truth = tr
                let events = try RoughnessEngine.windows(for: s, sampleRate: rate).compactMap(\.event)
                found[rate] = tr.map { x in events.filter { abs($0.t - x.t) <= 0.15 }.min { abs($0.t - x.t) < abs($1.t - x.t) } }
                before[rate] = found[rate]!.map { e in
                    e.map { var o = $0; o.peak = Self.bandPeak(s, rate: rate, at: $0.t); return o }
                }
            }
            for k in truth.indices {
                let e = Self.rates.compactMap { before[$0]![k] }
                guard e.count == Self.rates.count, let hi = e.map(\.peak).max(), let lo = e.map(\.peak).min() else { continue }
                oldWorst = max(oldWorst, (hi - lo) / hi)
                oldCompared += 1
                if (hi - lo) / hi > tolerance { oldOver += 1 }
                if (hi - lo) / hi > 0.15 { oldOver15 += 1 }
            }
            for (k, x) in truth.enumerated() {
                let e = Self.rates.map { found[$0]![k] }
                let text = zip(Self.rates, e).map { r, v in v.map { String(format: "%.0f Hz %.2f g ", r, $0.peak) + $0.kind.rawValue + String(format: " (drops %.2f/%.2f, noise %.3f)", $0.dip, $0.dipAfter, $0.noise) } ?? String(format: "%.0f Hz none", r) }
                print("[impact rates] seed \(seed) #\(k) \(x.shape.rawValue) " + String(format: "hit %.2f g drop %.2f g: ", x.hit, x.drop) + text.joined(separator: ", "))
                let seen = e.compactMap { $0 }
                // Whether a jolt is an event at all is decided on the fitted strike against a
                // baseline of 20 ms means (issue 28): the same at every rate, 1.5–2 g lone hits too.
                if seen.count != e.count { partial += 1 }
                #expect(seen.isEmpty || seen.count == e.count, "seed \(seed) #\(k) \(x.shape) \(x.hit) g is an event at some rates only: \(text)")
                guard seen.count == e.count, let hi = seen.map(\.peak).max(), let lo = seen.map(\.peak).min() else { continue }
                let spread = (hi - lo) / hi
                worst = max(worst, spread)
                compared += 1
                if spread > tolerance { over += 1 }
                if spread > 0.15 { over15 += 1 }
                let sizes = seen.map(\.peak).sorted(), middle = sizes[sizes.count / 2]
                worstFromMiddle = max(worstFromMiddle, sizes.map { abs($0 - middle) / middle }.max()!)
                #expect(RoughnessBands.sizesAgree(sizes), "seed \(seed) #\(k) \(x.shape) \(x.hit) g: sizes differ by \(Int((spread * 100).rounded())) %: \(text)")
                let kinds = Set(seen.map(\.kind))
                if kinds.count == 1 { kindsAgree += 1 }
                #expect(kinds.count == 1, "seed \(seed) #\(k) \(x.shape) \(x.hit) g: kinds differ: \(text)")
            }
        }
        print(String(format: "[impact rates] %d impacts at every rate (%d an event at some rates only): farthest from the middle reading %.1f %% (tolerance %.0f %%); widest pair %.1f %%, %d pairs over %.0f %%, %d over 15 %%; same kind %d of %d",
                     compared, partial, worstFromMiddle * 100, tolerance * 100, worst * 100, over, tolerance * 100, over15, kindsAgree, compared))
        #expect(compared >= Self.seeds.count * Self.perStream * 3 / 4, "too few impacts are events at every rate: \(compared)")
        print(String(format: "[impact rates] before (event-band peak over its gain): widest pair %.1f %%, %d of %d pairs over %.0f %%, %d over 15 %%",
                     oldWorst * 100, oldOver, oldCompared, tolerance * 100, oldOver15))
    }

    /// `ImpactSize` on its own, without rolling: a 15 ms strike alone reads its amplitude within
    /// 1 % at 40, 50, 100 and 200 Hz and every sampling phase; right against a 0.5–1 g drop or
    /// deck unloading (the pothole and bump shapes above, 40–100 ms), within 1 % at 100 and 200 Hz
    /// and within the tolerance at 50 Hz (19 % measured: the edge sample both share), 30 % at 40 Hz.
    /// The figures `ImpactSize` and `RoughnessBands.impactRateTolerance` state.
    @Test(arguments: [40.0, 50.0, 100.0, 200.0])
    func theFitReadsTheStrikeAtEveryPhase(rate: Double) {
        var rng = SeededGenerator(seed: 77)
        var worstLone = 0.0, worstNext = 0.0, worstCase = ""
        for k in 0..<48 {
            let phase = Double(k % 8) / 8, hit = 1.5 + 3.5 * rng.nextUnit(), drop = 0.5 + 0.5 * rng.nextUnit()
            let width = 0.04 + 0.06 * rng.nextUnit(), gap = 0.02 * rng.nextUnit()
            let start = 0.5 + phase / rate
            func fit(_ parts: [(start: Double, width: Double, amplitude: Double)]) -> Double {
                var s = (0..<Int(rate)).map { MotionSample(t: Double($0 + 1) / rate, ax: 0, ay: 0, az: 1) }
                for p in parts { ImpactKindEvaluationTests.halfSine(&s, rate: rate, start: p.start, width: p.width, amplitude: p.amplitude) }
                // The event band's peak: somewhere 10–130 ms after the onset, as the engine finds it.
                let peak = Int(((start + 0.03) * rate).rounded()) - 1
                var scratch: [Double] = []
                return ImpactSize.strike(value: { s[$0].az }, range: 0...(s.count - 1), peak: peak, sampleRate: rate, scratch: &scratch)?.amplitude ?? 0
            }
            let lone = fit([(start, 0.015, hit)])
            worstLone = max(worstLone, abs(lone - hit) / hit)
            let next = k % 2 == 0
                ? fit([(start - width, width, -drop), (start, 0.015, hit)])
                : fit([(start, 0.015, hit), (start + 0.015 + gap, width, -drop)])
            if abs(next - hit) / hit > worstNext { worstCase = (k % 2 == 0 ? "pothole" : "bump") + String(format: " hit %.2f g drop %.2f g over %.0f ms, gap %.0f ms, phase %.3f: %.2f g", hit, drop, width * 1000, gap * 1000, phase, next) }
            worstNext = max(worstNext, abs(next - hit) / hit)
        }
        print("[impact size] \(rate) Hz worst against a drop: \(worstCase)")
        print(String(format: "[impact size] %.0f Hz: a lone strike within %.1f %%, one against a drop within %.1f %%", rate, worstLone * 100, worstNext * 100))
        #expect(worstLone <= 0.01)
        #expect(worstNext <= (rate >= 100 ? 0.01 : rate >= 50 ? RoughnessBands.impactRateTolerance : 0.3))
    }
}
