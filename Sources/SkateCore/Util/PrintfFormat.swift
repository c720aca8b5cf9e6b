#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value `String(printf:)` can format: the standard integer and floating-point types and text.
///
/// Why not `String(format:)`: it lives in swift-corelibs-foundation, which links CoreFoundation,
/// whose static initialiser runs in every process of the binary (measured: +2.8 MB peak RSS and
/// ~1 ms at start-up for a static hello world, README "Where a plan's memory goes").
public protocol PrintfArgument {
    /// The value as one of the few kinds `printf` conversions read.
    var printfValue: PrintfValue { get }
}

/// What a `printf` conversion reads from an argument.
public enum PrintfValue: Sendable {
    case signed(Int64)
    case unsigned(UInt64)
    case double(Double)
    case text(String)
}

extension Int: PrintfArgument { public var printfValue: PrintfValue { .signed(Int64(self)) } }
extension Int8: PrintfArgument { public var printfValue: PrintfValue { .signed(Int64(self)) } }
extension Int16: PrintfArgument { public var printfValue: PrintfValue { .signed(Int64(self)) } }
extension Int32: PrintfArgument { public var printfValue: PrintfValue { .signed(Int64(self)) } }
extension Int64: PrintfArgument { public var printfValue: PrintfValue { .signed(self) } }
extension UInt: PrintfArgument { public var printfValue: PrintfValue { .unsigned(UInt64(self)) } }
extension UInt8: PrintfArgument { public var printfValue: PrintfValue { .unsigned(UInt64(self)) } }
extension UInt16: PrintfArgument { public var printfValue: PrintfValue { .unsigned(UInt64(self)) } }
extension UInt32: PrintfArgument { public var printfValue: PrintfValue { .unsigned(UInt64(self)) } }
extension UInt64: PrintfArgument { public var printfValue: PrintfValue { .unsigned(self) } }
extension Double: PrintfArgument { public var printfValue: PrintfValue { .double(self) } }
extension Float: PrintfArgument { public var printfValue: PrintfValue { .double(Double(self)) } }
extension String: PrintfArgument { public var printfValue: PrintfValue { .text(self) } }
extension Substring: PrintfArgument { public var printfValue: PrintfValue { .text(String(self)) } }
extension Character: PrintfArgument { public var printfValue: PrintfValue { .text(String(self)) } }

extension String {
    /// C `printf`-style formatting with the conversions this project uses: `%d %i %u %x %X %o %c`,
    /// `%f %F %e %E %g %G %a %A`, `%s %@` (text), `%%`, with flags (`-+ 0#`), width and precision
    /// (digits or `*`) and length modifiers (ignored: every integer is formatted as 64-bit).
    /// Numbers always use "." as the decimal point whatever the process locale (the TUI calls
    /// `setlocale`), as `String(format:)` did. A conversion with no argument left, or of a kind
    /// that does not fit the argument (text for `%d`), prints the argument's nearest reading or
    /// nothing; never undefined behaviour.
    public init(printf format: String, _ arguments: any PrintfArgument...) {
        self = PrintfFormatter.format(format, arguments)
    }
}

/// The formatter behind `String(printf:)`: parses each conversion and hands the numeric ones to
/// `vsnprintf` one at a time under the C numeric locale (exact, correctly rounded decimals).
enum PrintfFormatter {
    /// The POSIX locale numbers are formatted in (thread-local via `uselocale`).
    nonisolated(unsafe) static let cLocale: locale_t? = newlocale(Int32(1) << LC_NUMERIC, "C", nil)

    static func format(_ format: String, _ args: [any PrintfArgument]) -> String {
        var out = ""
        var next = 0
        func take() -> PrintfValue? {
            guard next < args.count else { return nil }
            defer { next += 1 }
            return args[next].printfValue
        }
        let chars = Array(format.utf8)
        var i = 0
        var literalStart = 0
        func flushLiteral(_ end: Int) {
            if end > literalStart { out += String(decoding: chars[literalStart..<end], as: UTF8.self) }
        }
        while i < chars.count {
            guard chars[i] == UInt8(ascii: "%") else { i += 1; continue }
            flushLiteral(i)
            var j = i + 1
            var flags = ""
            while j < chars.count, let f = Self.flag(chars[j]) { flags.append(f); j += 1 }
            var width: Int?
            if j < chars.count, chars[j] == UInt8(ascii: "*") {
                width = take().map(Self.intValue); j += 1
            } else {
                width = Self.number(chars, &j)
            }
            var precision: Int?
            if j < chars.count, chars[j] == UInt8(ascii: ".") {
                j += 1
                if j < chars.count, chars[j] == UInt8(ascii: "*") {
                    precision = take().map(Self.intValue); j += 1
                } else {
                    precision = Self.number(chars, &j) ?? 0
                }
            }
            while j < chars.count, Self.isLengthModifier(chars[j]) { j += 1 }
            guard j < chars.count else { literalStart = i; break }
            let conversion = chars[j]
            j += 1
            if let w = width, w < 0 { flags.append("-"); width = -w }
            switch conversion {
            case UInt8(ascii: "%"):
                out += "%"
            case UInt8(ascii: "d"), UInt8(ascii: "i"):
                out += Self.c(flags, width, precision, "lld", .signed(Self.int64(take())))
            case UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "o"):
                out += Self.c(flags, width, precision, "ll" + String(UnicodeScalar(conversion)), .unsigned(Self.uint64(take())))
            case UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "e"), UInt8(ascii: "E"),
                 UInt8(ascii: "g"), UInt8(ascii: "G"), UInt8(ascii: "a"), UInt8(ascii: "A"):
                out += Self.c(flags, width, precision, String(UnicodeScalar(conversion)), .double(Self.double(take())))
            case UInt8(ascii: "c"):
                let v = take()
                let s: String
                if case .text(let t)? = v { s = String(t.prefix(1)) } else {
                    s = UnicodeScalar(UInt32(truncatingIfNeeded: Self.int64(v))).map { String(Character($0)) } ?? ""
                }
                out += Self.pad(s, flags, width)
            default: // s, @ and anything else: text
                var s: String
                switch take() {
                case .text(let t)?: s = t
                case .signed(let v)?: s = String(v)
                case .unsigned(let v)?: s = String(v)
                case .double(let v)?: s = "\(v)"
                case nil: s = ""
                }
                if let p = precision, s.count > p { s = String(s.prefix(p)) }
                out += Self.pad(s, flags, width)
            }
            i = j
            literalStart = j
        }
        flushLiteral(chars.count)
        return out
    }

    private static func flag(_ c: UInt8) -> Character? {
        switch c {
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: " "), UInt8(ascii: "0"), UInt8(ascii: "#"):
            return Character(UnicodeScalar(c))
        default: return nil
        }
    }

    private static func isLengthModifier(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "h"), UInt8(ascii: "l"), UInt8(ascii: "q"), UInt8(ascii: "L"),
             UInt8(ascii: "z"), UInt8(ascii: "j"), UInt8(ascii: "t"): return true
        default: return false
        }
    }

    private static func number(_ chars: [UInt8], _ j: inout Int) -> Int? {
        var v: Int?
        while j < chars.count, chars[j] >= 0x30, chars[j] <= 0x39 {
            v = min((v ?? 0) * 10 + Int(chars[j] - 0x30), maxWidth)
            j += 1
        }
        return v
    }

    /// Widths and precisions are capped: a format never asks for a megabyte of padding.
    static let maxWidth = 4096

    private static func intValue(_ v: PrintfValue) -> Int { Int(clamping: int64(v)) }

    private static func int64(_ v: PrintfValue?) -> Int64 {
        switch v {
        case .signed(let x)?: return x
        case .unsigned(let x)?: return Int64(truncatingIfNeeded: x)
        case .double(let x)?: return x.isFinite ? Int64(clamping: Int(exactly: x.rounded(.towardZero)) ?? 0) : 0
        case .text(let t)?: return Int64(t) ?? 0
        case nil: return 0
        }
    }

    private static func uint64(_ v: PrintfValue?) -> UInt64 {
        if case .unsigned(let x)? = v { return x }
        return UInt64(bitPattern: int64(v))
    }

    private static func double(_ v: PrintfValue?) -> Double {
        switch v {
        case .double(let x)?: return x
        case .signed(let x)?: return Double(x)
        case .unsigned(let x)?: return Double(x)
        case .text(let t)?: return Double(t) ?? 0
        case nil: return 0
        }
    }

    private static func pad(_ s: String, _ flags: String, _ width: Int?) -> String {
        guard let w = width, s.count < w else { return s }
        let fill = String(repeating: " ", count: w - s.count)
        return flags.contains("-") ? s + fill : fill + s
    }

    /// One conversion through `vsnprintf`, in the C numeric locale.
    private static func c(_ flags: String, _ width: Int?, _ precision: Int?, _ conversion: String, _ value: PrintfValue) -> String {
        var spec = "%" + flags
        if let w = width { spec += String(w) }
        if let p = precision { spec += "." + String(min(p, maxWidth)) }
        spec += conversion
        let previous = cLocale.map { uselocale($0) }
        defer { if let previous { _ = uselocale(previous) } }
        return withVaList(Self.cArguments(value)) { va in
            var buffer = [CChar](repeating: 0, count: 128)
            let n = Int(vsnprintf(&buffer, buffer.count, spec, va))
            if n < buffer.count { return String(decoding: buffer.prefix(max(0, n)).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            return withVaList(Self.cArguments(value)) { va2 in
                var big = [CChar](repeating: 0, count: n + 1)
                _ = vsnprintf(&big, big.count, spec, va2)
                return String(decoding: big.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
    }

    private static func cArguments(_ value: PrintfValue) -> [any CVarArg] {
        switch value {
        case .signed(let x): return [x]
        case .unsigned(let x): return [x]
        case .double(let x): return [x]
        case .text: return []
        }
    }
}
