/// What makes a descent a run a skater enjoys (`DownhillFinder`): one row per threshold.
///
/// | constant              | value   | why |
/// |-----------------------|---------|-----|
/// | `gentlestMeanPct`     | −2 %    | flatter than this a board does not roll on its own: no run |
/// | `steepestMeanPct`     | −7 %    | steeper and the speed climbs past what foot-braking holds (caution starts at −6 % over 30 m) |
/// | `edgeGentlestPct`     | −0.5 %  | a run may flatten for a stretch but never climbs |
/// | `steepestWindowPct`   | −8 %    | the braking grade (DESIGN): any 30 m window that steep ends the run |
/// | `minLength`           | 150 m   | shorter is a driveway, not a run |
/// | `maxRoughnessRMS`     | 0.12 g  | butter or okay only: rough at speed throws a rider (`RoughnessClass.okayMax`) |
/// | `maxTurnDegrees`      | 60°     | sharper than a bend and the rider slows for it: the run ends |
/// | `runOutMetres`        | 25 m    | the run ends where the rider can roll out: a flat or rising way ahead |
/// | `crossingPenaltyMetres` | 60 m  | each crossing on the way down costs the ranking this much length |
/// | `cautionPenaltyFactor` | 3       | each caution-grade metre costs three metres of length in the ranking |
/// | `maxSharedShare`      | 0.5     | a run sharing more of its length with a better one is the same descent |
public enum DownhillRules {
    public static let gentlestMeanPct = -2.0
    public static let steepestMeanPct = -7.0
    static let edgeGentlestPct = -0.5
    public static let steepestWindowPct = -8.0
    public static let minLength = 150.0
    static let maxRoughnessRMS = RoughnessClass.okayMax
    static let maxTurnDegrees = 60.0
    static let runOutMetres = 25.0
    static let crossingPenaltyMetres = 60.0
    static let cautionPenaltyFactor = 3.0
    static let maxSharedShare = 0.5
    /// A line's mean grade on the map's edge table may miss the band by this much (percent
    /// points) and still be measured on its plan (the plan's conditioned profile differs a little).
    static let prefilterSlackPct = 1.0
    /// Default search radius around the place asked about, metres (issue 32: 3 km).
    public static let defaultRadius = 3_000.0
    /// Runs listed at most.
    public static let maxResults = 10
}
