import Foundation
import SkateCore
import Testing

/// `FixedDecimal` writes its digits into a stack buffer and appends them once; these hold it to
/// the byte-at-a-time writer it replaced, on seeded random values and the edges.
@Suite struct FixedDecimalTests {
    /// The writer before the stack buffer, kept as the reference.
    static func referenceAppend(_ x: Double, decimals: Int, to buffer: inout [UInt8]) {
        guard x.isFinite else { buffer.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]); return }
        var unit = 1
        for _ in 0..<decimals { unit *= 10 }
        let scaled = (x * Double(unit)).rounded()
        guard abs(scaled) < 9e15 else { buffer.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]); return }
        var v = Int(scaled)
        if v < 0 { buffer.append(UInt8(ascii: "-")); v = -v }
        referenceAppendInt(v / unit, to: &buffer)
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

    static func referenceAppendInt(_ value: Int, to buffer: inout [UInt8]) {
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

    @Test func sameBytesAsTheByteAtATimeWriter() {
        var rng = SplitMix64(seed: 28)
        var values: [Double] = [0, -0.0, 0.5, -0.5, 0.05, -0.004, 0.0049999, 1, -1, 9.999, 43.731251, 7.413978, -7.413978,
                                1e15, 9e15, 8.99e15, -8.99e15, 1e-300, .infinity, -.infinity, .nan, 123456.789, 2.5, 3.5, -2.5]
        for _ in 0..<20_000 {
            let bits = rng.next()
            switch bits % 4 {
            case 0: values.append(Double(Int64(bitPattern: rng.next()) % 2_000_000) / 1000)
            case 1: values.append(Double(bitPattern: rng.next()))
            case 2: values.append((Double(rng.next() % 1_000_000_000) / 1e6 - 500) * (bits % 8 == 2 ? 1e6 : 1))
            default: values.append(Double(Int64(bitPattern: rng.next()) % 100_000) / 8)
            }
        }
        for x in values {
            for decimals in 0...9 {
                var got: [UInt8] = [0x41], want: [UInt8] = [0x41]
                FixedDecimal.append(x, decimals: decimals, to: &got)
                Self.referenceAppend(x, decimals: decimals, to: &want)
                #expect(got == want, "\(x) with \(decimals) decimals: \(String(decoding: got, as: UTF8.self)) vs \(String(decoding: want, as: UTF8.self))")
            }
        }
        var ints: [Int] = [0, 1, -1, 9, 10, -9, -10, 99, 100, Int.max, Int.min, Int.min + 1, 1_000_000_007]
        for _ in 0..<20_000 { ints.append(Int(truncatingIfNeeded: rng.next()) >> Int(rng.next() % 64)) }
        for v in ints {
            var got: [UInt8] = [], want: [UInt8] = []
            FixedDecimal.appendInt(v, to: &got)
            Self.referenceAppendInt(v, to: &want)
            #expect(got == want, "\(v)")
            #expect(String(decoding: got, as: UTF8.self) == String(v))
        }
    }
}
