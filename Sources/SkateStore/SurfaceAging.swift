import FoundationEssentials
import Glibc
import SkateCore

/// How surface observations age into one figure per edge.
///
/// Each observation `i` (RMS `x_i` in g, made at `t_i`) weighs `w_i = 0.5^((now − t_i) / halfLife)`.
/// The edge's RMS is the **weighted median** of the `x_i` (the smallest `x` whose cumulative
/// weight reaches half the total): robust against a single trick landing or one grumpy rating,
/// and after a resurfacing fresh observations outvote old ones within a couple of weeks.
/// **Freshness** is the weight of the newest observation (1 = made now, 0.5 two weeks ago).
/// Observations older than `window`, or beyond the newest `maxObservations`, are not read.
public enum SurfaceAging {
    /// Half-life of an observation's weight (seconds): surfaces change over weeks (design notes: ~14 d).
    public static let halfLife: TimeInterval = 14 * 86_400
    /// Beyond eight half-lives (112 days) a weight is below 0.4 %: not worth reading.
    public static let window: TimeInterval = 8 * halfLife
    /// Newest observations per edge and source kept in the median: plenty for a robust figure.
    public static let maxObservations = 64
    /// Measured figures under this (g) are not read as evidence: no rolling wheel reads so little
    /// (ISO 8608 class A, the smoothest road, reads 0.035–0.045 g at 3–5 m/s), while a phone on a
    /// rider walking the board or standing reads 0.005–0.008 g (gait below the roughness band,
    /// sensor noise). Since 706160a only rolling windows are learnt; stores written before it may
    /// hold such rows (docs/wheels-to-routes.md 4a) for up to `window`.
    public static let minRollingRMS = 0.02
    /// Measurements at least this fresh (two half-lives, 28 days) win over any rating; older
    /// ones win only over ratings that are older still.
    public static let measuredAlwaysPreferredFreshness: Double = 0.25

    /// Weight of an observation `age` seconds old (future ones count as new).
    public static func weight(age: TimeInterval) -> Double {
        pow(0.5, max(0, age) / halfLife)
    }

    /// Weighted median of `(value, weight)` pairs; nil when empty or all weights are zero.
    public static func weightedMedian(_ samples: [(value: Double, weight: Double)]) -> Double? {
        let s = samples.filter { $0.weight > 0 && $0.value.isFinite }.sorted { $0.value < $1.value }
        let total = s.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return nil }
        var acc = 0.0
        for (i, x) in s.enumerated() {
            acc += x.weight
            if acc >= total / 2 {
                // Exactly half: the median lies between this value and the next.
                if abs(acc - total / 2) <= total * 1e-12, i + 1 < s.count { return (x.value + s[i + 1].value) / 2 }
                return x.value
            }
        }
        return s.last?.value
    }

    /// One figure from observations `(rms, at)` of one source at `now`; nil when none count.
    /// Measured figures under `minRollingRMS` do not count (walked or standing, not rolled).
    public static func summarize(_ obs: [(rms: Double, at: Date)], source: RoughnessSource, now: Date) -> EdgeObservation? {
        let recent = obs.filter { $0.at <= now && now.timeIntervalSince($0.at) <= window && (source != .measured || $0.rms >= minRollingRMS) }
            .sorted { $0.at > $1.at }.prefix(maxObservations)
        guard let newest = recent.first,
              let rms = weightedMedian(recent.map { ($0.rms, weight(age: now.timeIntervalSince($0.at))) }) else { return nil }
        return EdgeObservation(rms: rms, source: source, freshness: weight(age: now.timeIntervalSince(newest.at)), count: recent.count)
    }

    /// Measured beats rated when it is fresh enough or at least as fresh as the rating.
    public static func preferred(measured: EdgeObservation?, rating: EdgeObservation?) -> EdgeObservation? {
        guard let m = measured else { return rating }
        guard let r = rating else { return m }
        return (m.freshness >= measuredAlwaysPreferredFreshness || m.freshness >= r.freshness) ? m : r
    }
}
