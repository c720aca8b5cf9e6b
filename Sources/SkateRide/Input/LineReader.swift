import FoundationEssentials
import SkateCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a text file line by line in 64 KiB pieces, handing each line (without its line
/// terminator) to a closure as raw UTF-8 bytes. Memory stays flat however long the file, and a
/// line is refused past `maxLineBytes` (a huge file without line breaks is one clear line, not
/// an allocation the size of the file).
enum LineReader {
    /// Longest line read (bytes). The longest line SkateRoute writes is a ride log's summary
    /// (~200 bytes per edge ridden: a 100 km ride is ~2 MB); motion and GPX lines are far shorter.
    static let maxLineBytes = 16 << 20
    /// Bytes read per `fread`.
    static let chunkSize = 1 << 16

    /// Calls `body(lineNumber, bytes)` for every line (1-based numbers). A leading UTF-8 BOM is
    /// removed from line 1. Throws `InputPathError` unless `path` is a regular file (a device
    /// never ends, a FIFO blocks) or when a line is longer than `maxLineBytes`, and whatever
    /// `body` throws; returns false if it can't be opened.
    static func forEachLine(path: String, _ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Bool {
        try InputPath.checkRegularFile(path)
        guard let fp = fopen(path, "r") else { return false }
        defer { fclose(fp) }
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { chunk.deallocate() }
        var carry: [UInt8] = []
        var number = 0
        func emit(_ bytes: UnsafePointer<UInt8>, _ count: Int) throws {
            number += 1
            var start = 0
            var end = count
            while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
            if number == 1, end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
            try body(number, UnsafeBufferPointer(start: bytes + start, count: max(0, end - start)))
        }
        func tooLong() -> InputPathError {
            InputPathError(path: path, problem: "line \(number + 1) is longer than \(maxLineBytes >> 20) MB: not a text file of this kind")
        }
        while true {
            let n = fread(chunk, 1, chunkSize, fp)
            if n == 0 { break }
            var i = 0
            while i < n {
                let rest = n - i
                if let hit = memchr(chunk + i, 0x0A, rest) {
                    let j = hit.assumingMemoryBound(to: UInt8.self) - chunk
                    let length = j - i + 1
                    if carry.isEmpty {
                        try emit(chunk + i, length)
                    } else {
                        guard carry.count + length <= maxLineBytes else { throw tooLong() }
                        carry.append(contentsOf: UnsafeBufferPointer(start: chunk + i, count: length))
                        try carry.withUnsafeBufferPointer { try emit($0.baseAddress!, $0.count) }
                        carry.removeAll(keepingCapacity: true)
                    }
                    i = j + 1
                } else {
                    guard carry.count + rest <= maxLineBytes else { throw tooLong() }
                    carry.append(contentsOf: UnsafeBufferPointer(start: chunk + i, count: rest))
                    i = n
                }
            }
        }
        if ferror(fp) != 0 { throw InputPathError(path: path, problem: "read error after line \(number)") }
        if !carry.isEmpty { try carry.withUnsafeBufferPointer { try emit($0.baseAddress!, $0.count) } }
        return true
    }
}

/// Small byte-level helpers for the motion parsers.
enum ByteText {
    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A }

    /// The bytes with leading and trailing ASCII whitespace removed.
    static func trimmed(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var s = 0, e = b.count
        while s < e, isSpace(b[s]) { s += 1 }
        while e > s, isSpace(b[e - 1]) { e -= 1 }
        return UnsafeBufferPointer(rebasing: b[s..<e])
    }

    static func string(_ b: UnsafeBufferPointer<UInt8>) -> String { String(decoding: b, as: UTF8.self) }

    /// Characters of a bad line quoted in an error message before it is cut with "…".
    static let excerptLength = 60

    /// The text for an error message: at most `excerptLength` characters, control characters
    /// replaced, so a binary file cannot flood or garble the terminal.
    static func excerpt(_ b: UnsafeBufferPointer<UInt8>) -> String {
        TerminalSafe.quoted(string(b), maxLength: excerptLength)
    }

    /// A number field this long (bytes, blanks trimmed) or longer is refused unread.
    static let maxNumberBytes = 64

    /// Parses a decimal number (Swift's locale-independent parser); nil when not a finite number.
    static func double(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        let t = trimmed(b)
        guard !t.isEmpty, t.count < maxNumberBytes else { return nil }
        if let v = plainDecimal(t) { return v }
        guard let v = Double(string(t)), v.isFinite else { return nil }
        return v
    }

    /// Most significant digits the fast path takes: below 10¹⁵ < 2⁵³ the digits are an exact Double.
    static let fastPathDigits = 15

    /// 10^k for k in 0…`fastPathDigits`, all exact Doubles (a switch: no array, no lazy global).
    @inline(__always) static func exactPowerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: return 1
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        default: return 1e15
        }
    }

    /// `[+-]digits[.digits]` with at most `fastPathDigits` digits, read without a String: the
    /// digits m and the fraction length f are exact, so m / 10^f is one correctly rounded
    /// division — the very Double the full parser returns (Clinger's fast path). Anything else
    /// (exponents, long mantissas, "inf", "1.", ".5") returns nil and takes the full parser.
    /// Motion CSV lines (`0.01,-0.002,-0.001,1.016`) are all this form. `t` must not be empty.
    @inline(__always) static func plainDecimal(_ t: UnsafeBufferPointer<UInt8>) -> Double? {
        guard var p = t.baseAddress, t.count > 0 else { return nil }
        let end = p + t.count
        let negative = p.pointee == UInt8(ascii: "-")
        if negative || p.pointee == UInt8(ascii: "+") { p += 1 }
        var mantissa: UInt64 = 0
        let intDigits = appendDigits(&p, end, to: &mantissa)
        var fracDigits = 0
        if p < end, p.pointee == UInt8(ascii: ".") {
            p += 1
            fracDigits = appendDigits(&p, end, to: &mantissa)
            guard fracDigits > 0 else { return nil }
        }
        // A wrapped mantissa (over 19 digits) is refused here with every other long one.
        guard p == end, intDigits > 0, intDigits + fracDigits <= fastPathDigits else { return nil }
        let v = Double(mantissa) / exactPowerOfTen(fracDigits)
        return negative ? -v : v
    }

    /// Reads the ASCII digits at `p` (up to `end`) onto `mantissa` (wrapping past 19 digits; the
    /// caller refuses that many), moves `p` past them and returns how many there were.
    @inline(__always) private static func appendDigits(_ p: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>,
                                                       to mantissa: inout UInt64) -> Int {
        let start = p
        while p < end {
            let d = p.pointee &- 0x30
            guard d < 10 else { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            p += 1
        }
        return p - start
    }
}
