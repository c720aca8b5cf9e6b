import FoundationEssentials

/// When stored impacts become a *detected* hazard, and how much routing believes one.
///
/// | rule | value | why |
/// |---|---|---|
/// | `sameSpotMetres` | 10 m | GPS and dead-reckoning error along an edge at skating speed (~5 m each way) |
/// | `passSeparation` | 20 s | two hits closer in time are one pass (front and back trucks, a wobble) |
/// | `passesForHazard` | 2 | once may be the rider's line; twice at one spot is the street |
/// | `hardHitPeak` | 2.5 g | a hit that hard on its own is worth a warning (cracks and joints stay below 2 g) |
/// | `detectedConfidenceFactor` | 0.35 | unconfirmed, a detected hazard weighs a third of a rider's report |
/// | `severity` | 1, hard hit 2 | minor by default: the rider decides how bad it is |
public enum ImpactRules {
    /// Impacts on the same edge closer than this along it (m) are the same spot.
    public static let sameSpotMetres: Double = 10
    /// Hits at one spot closer in time than this (s) belong to one pass.
    public static let passSeparation: TimeInterval = 20
    /// Distinct passes with a hit at one spot that make a detected hazard.
    public static let passesForHazard = 2
    /// One hit at least this hard (event-band peak, g) makes a detected hazard on its own.
    public static let hardHitPeak: Double = 2.5
    /// Routing multiplies an unconfirmed detected hazard's confidence by this.
    public static let detectedConfidenceFactor: Double = 0.35
    /// Severity of a detected hazard (1 minor), and of one made by a hard hit (2 notable).
    public static let detectedSeverity = 1
    public static let hardHitSeverity = 2
    /// Reporter name of detected hazards: a rider who confirms or dismisses one is another reporter,
    /// so their vote counts.
    public static let detectorReporter = "ride-detector"

    /// The hazard kind for an impact kind name (`ImpactKind`): a bump is `other`.
    public static func hazardKind(impactKind: String) -> HazardKind {
        switch impactKind {
        case "pothole": return .pothole
        case "crack": return .crack
        default: return .other
        }
    }

    /// Number of distinct passes among hit times (seconds since 1970): a new pass starts whenever
    /// a hit comes `passSeparation` or more after the previous one.
    public static func passes(_ times: [Double]) -> Int {
        let t = times.sorted()
        guard var last = t.first else { return 0 }
        var n = 1
        for x in t.dropFirst() {
            if x - last >= passSeparation { n += 1 }
            last = x
        }
        return n
    }
}
