/// A small, allocation-free ISO 8601 / RFC 3339 date-time parser for GPX `<time>` values.
public enum ISO8601Time {
    /// Parses `YYYY-MM-DDThh:mm:ss[.fff…][Z|±hh:mm|±hhmm]` (a space instead of `T` is accepted;
    /// no zone means UTC) into seconds since 1970-01-01T00:00:00Z. Returns nil when malformed.
    public static func parse(_ text: String) -> Double? {
        var s = text
        return s.withUTF8 { parse(bytes: $0) }
    }

    public static func parse(bytes b: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let n = b.count
        while i < n, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
        func digits(_ count: Int) -> Int? {
            guard i + count <= n else { return nil }
            var v = 0
            for k in 0..<count {
                let c = b[i + k]
                guard c >= 0x30, c <= 0x39 else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            i += count
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < n, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2) else { return nil }
        guard i < n, b[i] == 0x54 || b[i] == 0x74 || b[i] == 0x20 else { return nil }
        i += 1
        guard let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A), let second = digits(2) else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour <= 24, minute <= 59, second <= 60 else { return nil }
        var fraction = 0.0
        if i < n, b[i] == 0x2E || b[i] == 0x2C {
            i += 1
            var scale = 0.1
            var any = false
            while i < n, b[i] >= 0x30, b[i] <= 0x39 {
                fraction += Double(b[i] - 0x30) * scale
                scale *= 0.1
                i += 1
                any = true
            }
            guard any else { return nil }
        }
        var offset = 0
        if i < n {
            let c = b[i]
            if c == 0x5A || c == 0x7A {
                i += 1
            } else if c == 0x2B || c == 0x2D {
                i += 1
                guard let oh = digits(2) else { return nil }
                _ = expect(0x3A)
                let om = digits(2) ?? 0
                guard oh <= 23, om <= 59 else { return nil }
                offset = (oh * 3600 + om * 60) * (c == 0x2D ? -1 : 1)
            }
        }
        while i < n, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
        guard i == n else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let secs = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Double(secs) + fraction
    }

    /// Parses a full date `YYYY-MM-DD` (surrounding spaces allowed) as its midnight UTC, in
    /// seconds since 1970. Returns nil when malformed.
    public static func parseFullDate(_ text: String) -> Double? {
        let b = Array(text.utf8).drop { $0 == 0x20 }
        let t = Array(b.reversed().drop { $0 == 0x20 }.reversed())
        guard t.count == 10, t[4] == 0x2D, t[7] == 0x2D else { return nil }
        func number(_ r: Range<Int>) -> Int? {
            var v = 0
            for k in r {
                guard t[k] >= 0x30, t[k] <= 0x39 else { return nil }
                v = v * 10 + Int(t[k] - 0x30)
            }
            return v
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10),
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        return Double(daysFromCivil(year: y, month: m, day: d) * 86_400)
    }

    /// A date-time (`parse`) or a full date (`parseFullDate`), the forms `--now` and the store
    /// commands' dates accept.
    public static func parseDateOrDateTime(_ text: String) -> Double? {
        parse(text) ?? parseFullDate(text)
    }

    /// Formats seconds since 1970 as the calendar date `YYYY-MM-DD` at `offsetSeconds` from UTC
    /// (a time zone's offset at that instant).
    public static func formatDate(_ t: Double, offsetSeconds: Int = 0) -> String {
        String(format(t + Double(offsetSeconds)).prefix { $0 != "T" })
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Formats seconds since 1970 as `YYYY-MM-DDThh:mm:ssZ` (whole seconds, UTC) for messages.
    public static func format(_ t: Double) -> String {
        // Any finite time that fits whole seconds formats (the civil arithmetic below stays
        // in range up to ±9.2e18 s); NaN, ±∞ and beyond read "?" instead of trapping.
        guard let total = CheckedNumber.int(t, .down) else { return "?" }
        var days = total / 86_400
        var rem = total % 86_400
        if rem < 0 { rem += 86_400; days -= 1 }
        // civil_from_days (Hinnant)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(y)-\(two(m))-\(two(d))T\(two(rem / 3600)):\(two(rem % 3600 / 60)):\(two(rem % 60))Z"
    }
}
