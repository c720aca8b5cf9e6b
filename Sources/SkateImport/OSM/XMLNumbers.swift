/// Number parsing for the OSM XML reader, straight from attribute bytes (text decoding is the
/// shared XML tokenizer's).
enum XMLText {
    /// Exact powers of ten up to 10^22 (the largest exactly representable in a Double).
    private static let powersOfTen: [Double] = (0...22).map { e in
        var v = 1.0
        for _ in 0..<e { v *= 10 }
        return v
    }
    /// Most significant digits that still fit an exact Double mantissa (2^53 ≈ 9.007e15).
    private static let maxExactDigits = 15

    /// A decimal integer (`-123`), or nil if the bytes are not one or overflow.
    @inline(__always)
    static func int64(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int64? {
        var i = 0
        var negative = false
        if count > 0, p[0] == UInt8(ascii: "-") { negative = true; i = 1 } else if count > 0, p[0] == UInt8(ascii: "+") { i = 1 }
        guard i < count else { return nil }
        var v: Int64 = 0
        while i < count {
            let d = Int64(p[i]) &- 48
            guard d >= 0, d <= 9 else { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(d)
            guard !o1, !o2 else { return nil }
            v = s
            i += 1
        }
        return negative ? -v : v
    }

    /// A decimal number such as `43.7371175`. Short plain decimals (all OSM coordinates) are
    /// converted as mantissa / 10^digits, a single correctly rounded division, which gives the
    /// same Double as `Double(String)` and as the PBF reader's nanodegrees / 1e9.
    @inline(__always)
    static func double(_ p: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        var i = 0
        var negative = false
        if count > 0, p[0] == UInt8(ascii: "-") { negative = true; i = 1 } else if count > 0, p[0] == UInt8(ascii: "+") { i = 1 }
        var mantissa: Int64 = 0
        var digits = 0, fraction = 0
        var seenDot = false, plain = true
        while i < count {
            let c = p[i]
            if c >= 48, c <= 57 {
                if digits > 0 || c != 48 { digits += 1 }
                mantissa = mantissa &* 10 &+ Int64(c - 48)
                if seenDot { fraction += 1 }
            } else if c == UInt8(ascii: "."), !seenDot {
                seenDot = true
            } else {
                plain = false
                break
            }
            i += 1
        }
        if plain, digits <= maxExactDigits, (fraction < powersOfTen.count), count > (negative ? 1 : 0), !(count == 1 && seenDot) {
            let v = Double(mantissa) / powersOfTen[fraction]
            return negative ? -v : v
        }
        // Exponents, long mantissas: the standard library's parser.
        return Double(String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self))
    }
}
