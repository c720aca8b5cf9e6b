import FoundationEssentials
import Glibc

/// The numbers that govern merging, confidence and trust. Each is a named constant with its reason.
///
/// **Confidence** of a hazard at time `now`:
/// ```
/// evidence   = trust(reporter) + confirmations − goneWeight × goneVotes
/// base       = 1 / (1 + exp(−evidence))                 (logistic)
/// ageFactor  = 1 − ageFactorDropAtLifetime × min(1, age / lifetime)
/// confidence = base × ageFactor
/// ```
/// where `age` = now − last confirmation, `trust` ∈ [0, 1] (a newcomer has 0.5) and
/// `confirmations` / `goneVotes` count distinct other reporters. A fresh report by a newcomer has
/// confidence 0.62; one confirmation lifts it to 0.82, two to 0.92; one "gone" vote on an
/// unconfirmed report drops it to 0.18 (below the floor: gone). Age takes off up to half by the
/// end of the lifetime, so an old report weighs less on routing than a fresh one.
///
/// **Live**: `age < kind.lifetime` and `confidence ≥ liveConfidenceFloor`.
///
/// **Trust** of a reporter is the mean of a Beta(1 + c, 1 + g) belief, `(1 + c) / (2 + c + g)`,
/// where `c` counts confirmations by others of the reporter's reports and `g` the "gone" votes by
/// others on them: 0.5 for a newcomer, rising towards 1 with confirmations, falling towards 0
/// when reports are voted gone, and never jumping on one vote.
public enum HazardRules {
    /// Reports of the same kind closer than this (metres) are the same hazard (GPS noise ~5–10 m,
    /// plus the rider's own movement while pressing the key).
    public static let mergeRadius: Double = 18
    /// Repeats by the same reporter within this many seconds are key bounce / double taps.
    public static let debounceInterval: TimeInterval = 600
    /// A "gone" vote weighs more than a confirmation: a rider who looked and saw nothing is strong evidence.
    public static let goneWeight: Double = 2
    /// Share of confidence an unconfirmed report loses by the end of its lifetime.
    public static let ageFactorDropAtLifetime: Double = 0.5
    /// Below this confidence a hazard is treated as gone.
    public static let liveConfidenceFloor: Double = 0.2
    /// Trust of a reporter nobody has confirmed or contradicted yet (Beta(1,1) mean).
    public static let newcomerTrust: Double = 0.5
    /// Longest reporter name kept (longer names are refused, not truncated silently).
    public static let maxReporterLength = 64
    /// Severity range: 1 minor, 2 notable, 3 severe (dismount / avoid).
    public static let severityRange = 1...3

    /// Reporter trust from confirmations and gone votes others gave to their reports.
    public static func trust(confirmationsReceived c: Int, goneReceived g: Int) -> Double {
        (1 + Double(c)) / (2 + Double(c) + Double(g))
    }

    /// Confidence in 0…1 (see the type's documentation for the formula).
    /// - Parameters:
    ///   - trust: the reporter's trust, 0…1.
    ///   - confirmations: distinct other reporters who confirmed.
    ///   - goneVotes: distinct reporters who voted it gone.
    ///   - age: seconds since the last confirmation (negative counts as 0).
    ///   - lifetime: the kind's lifetime in seconds.
    public static func confidence(trust: Double, confirmations: Int, goneVotes: Int,
                                  age: TimeInterval, lifetime: TimeInterval) -> Double {
        let evidence = trust + Double(confirmations) - goneWeight * Double(goneVotes)
        let base = 1 / (1 + exp(-evidence))
        let ageFraction = min(1, max(0, age) / lifetime)
        return base * (1 - ageFactorDropAtLifetime * ageFraction)
    }
}
