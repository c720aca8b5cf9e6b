import FoundationEssentials

/// Numbers that came from outside (files, the store) converted without trapping, and the ranges
/// a reader accepts for them. `Int(someDouble)` traps on NaN, ±∞ and anything past ±9.2e18: a
/// motion sample at t = 1e18 or a stored climb of 1e300 used to kill the process (issue 29).
/// Readers check values against `PlausibleRange` where they enter and refuse (or skip) what lies
/// outside with one line; code that only formats a figure uses `CheckedNumber.int`.
public enum CheckedNumber {
    /// `x` rounded by `rule` as an `Int`, or nil when it is not finite or does not fit.
    public static func int(_ x: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int? {
        guard x.isFinite else { return nil }
        let r = x.rounded(rule)
        // 2^63 is exactly representable; every double below it converts.
        guard r >= -9_223_372_036_854_775_808.0, r < 9_223_372_036_854_775_808.0 else { return nil }
        return Int(r)
    }

    /// `x` rounded by `rule` and clamped into `Int`'s range; NaN reads 0. For display only.
    public static func clampedInt(_ x: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int {
        if x.isNaN { return 0 }
        return int(x, rule) ?? (x < 0 ? Int.min : Int.max)
    }
}

/// What a reader accepts for each kind of figure, with the reason for each bound. A value
/// outside is an error naming the file or row, never a trap further on.
public enum PlausibleRange {
    /// Seconds since 1970 (or on a relative clock starting near 0): 1900-01-01 … 2200-01-01.
    /// Wide enough for any recording or report, narrow enough that every later conversion to
    /// whole seconds, days, milliseconds or sample bins fits.
    public static let time: ClosedRange<Double> = -2_208_988_800 ... 7_258_118_400
    /// Metres along a route or ride: at most 100 times round the Earth.
    public static let distanceM: ClosedRange<Double> = 0 ... 4.0e9
    /// Seconds a plan or ride lasts: at most ten years.
    public static let durationS: ClosedRange<Double> = 0 ... 3.2e8
    /// Metres climbed or descended: at most 10,000 km.
    public static let climbM: ClosedRange<Double> = 0 ... 1.0e7
    /// Metres per second: far above anything on wheels, below any overflow.
    public static let speedMS: ClosedRange<Double> = 0 ... 1.0e4

    /// True when `x` is finite and inside `range`.
    public static func holds(_ x: Double, _ range: ClosedRange<Double>) -> Bool {
        x.isFinite && range.contains(x)
    }
}
