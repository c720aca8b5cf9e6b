/// Fast fixed-decimal number text for logs and CSV: no exponent, no "-0", the same bytes on
/// every platform (unlike `String(format:)`, and ~20× faster in hot loops).
public enum FixedDecimal {
    /// Appends `x` with exactly `decimals` decimals (0…9), or `null` when not finite or huge.
    public static func append(_ x: Double, decimals: Int, to buffer: inout [UInt8]) {
        guard x.isFinite else { buffer.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]); return }
        var unit = 1
        for _ in 0..<decimals { unit *= 10 }
        let scaled = (x * Double(unit)).rounded()
        guard abs(scaled) < 9e15 else { buffer.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]); return }
        var v = Int(scaled)
        if v < 0 { buffer.append(UInt8(ascii: "-")); v = -v }
        appendInt(v / unit, to: &buffer)
        if decimals > 0 {
            buffer.append(UInt8(ascii: "."))
            var frac = v % unit
            var div = unit / 10
            for _ in 0..<decimals {
                buffer.append(UInt8(truncatingIfNeeded: frac / div) &+ 0x30)
                frac %= div
                div = max(1, div / 10)
            }
        }
    }

    /// Appends a decimal integer.
    public static func appendInt(_ value: Int, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        var m = value.magnitude
        if m < 10 { buffer.append(UInt8(truncatingIfNeeded: m) &+ 0x30); return }
        var p: UInt = 1
        while p <= m / 10 { p *= 10 }
        while p > 0 {
            buffer.append(UInt8(truncatingIfNeeded: m / p) &+ 0x30)
            m %= p
            p /= 10
        }
    }

    /// `x` with exactly `decimals` decimals, like `%.Nf` ("null" when not finite or huge).
    public static func string(_ x: Double, decimals: Int) -> String {
        var b: [UInt8] = []
        b.reserveCapacity(24)
        append(x, decimals: decimals, to: &b)
        return String(decoding: b, as: UTF8.self)
    }

    /// Like `string` but always signed, like `%+.Nf` ("+0.0" for zero).
    public static func signed(_ x: Double, decimals: Int) -> String {
        var b: [UInt8] = []
        b.reserveCapacity(24)
        var unit = 1.0
        for _ in 0..<decimals { unit *= 10 }
        if x.isFinite && (x * unit).rounded() >= 0 { b.append(UInt8(ascii: "+")) }
        append(x, decimals: decimals, to: &b)
        return String(decoding: b, as: UTF8.self)
    }

    /// Right-aligns `s` in a field of `width` characters (like `%3d`).
    public static func padLeft(_ s: String, _ width: Int) -> String {
        let n = s.count
        return n >= width ? s : String(repeating: " ", count: width - n) + s
    }
}
