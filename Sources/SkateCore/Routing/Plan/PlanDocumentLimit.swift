/// How large a plan document (`skateroute plan --format json`) a reader accepts, checked on its
/// bytes before it is parsed (issue 29 row 9: a 2 M-point plan took `routes save` ~50 s).
public enum PlanDocumentLimit {
    /// Most geometry points a plan may hold: a 1,000 km plan with a point every 5 m (`plan`
    /// writes about one per 6 m on Monaco's streets: 237 points for 1.4 km).
    public static let maxPoints = 200_000
    /// Most `[` per geometry point a plan document holds: one per point, plus its steps', zones'
    /// and details' arrays, and up to three alternatives with their own (Monaco: 2.2 per point
    /// without alternatives).
    public static let maxBracketsPerPoint = 12

    /// Nil when `bytes` may be a plan within `maxPoints`; else the one-line reason (its `[`
    /// count says more points than the limit, whatever the rest of the document holds).
    public static func problem<Bytes: Sequence>(_ bytes: Bytes) -> String? where Bytes.Element == UInt8 {
        let limit = maxPoints * maxBracketsPerPoint
        var brackets = 0
        for b in bytes where b == UInt8(ascii: "[") {
            brackets += 1
            if brackets > limit { return "more than \(maxPoints) points (the limit for a plan)" }
        }
        return nil
    }
}
