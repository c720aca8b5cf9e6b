/// Formats seconds since the Unix epoch as ISO 8601 UTC (`2026-07-10T20:21:01Z`) without
/// Foundation's formatters (pure integer arithmetic: days-to-civil-date from the proleptic
/// Gregorian calendar).
enum ISO8601 {
    static func utc(secondsSinceEpoch t: Int64) -> String {
        let secondsPerDay: Int64 = 86_400
        var days = t / secondsPerDay
        var secs = t % secondsPerDay
        if secs < 0 { secs += secondsPerDay; days -= 1 }
        let (y, m, d) = civil(fromDays: days)
        let hh = secs / 3600, mm = (secs % 3600) / 60, ss = secs % 60
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(hh, 2)):\(pad(mm, 2)):\(pad(ss, 2))Z"
    }

    /// Year, month (1–12), day (1–31) of a day count since 1970-01-01 (eras of 400 years).
    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    private static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
