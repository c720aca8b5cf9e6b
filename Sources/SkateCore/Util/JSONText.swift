/// A JSON value written by hand, keys sorted, so output is byte-stable across runs and platforms:
/// the project's one JSON writer (`Codable` documents go through `JSONText.text(of:)`).
///
/// Why not `JSONSerialization`/`JSONEncoder`: on the `skateroute plan --format json` path they
/// cost ~8 ms of a ~4 ms process (Foundation's `[String: Any]` bridging and generic set-up in a
/// fresh process); the plan formats need nothing more than this.
public indirect enum JSONText: Sendable, Equatable {
    case string(String)
    /// A number; integral values print without a fraction, others in Swift's shortest form.
    case number(Double)
    /// An exact integer (ids beyond 2^53 stay exact).
    case int(Int64)
    /// An exact integer above `Int64.max` (a `UInt64` seed).
    case unsigned(UInt64)
    case bool(Bool)
    case null
    case array([JSONText])
    /// Keys are sorted when written.
    case object(JSONObject)

    /// Compact text, or pretty with two-space indents (`"key" : value`, one entry per line).
    public func text(pretty: Bool = false) -> String {
        var out = ""
        write(to: &out, pretty: pretty, indent: 0)
        return out
    }

    /// A number rounded to `digits` decimals (coordinates: 7 ≈ 1 cm; figures: 3).
    public static func rounded(_ x: Double, _ digits: Int) -> JSONText {
        var f = 1.0
        for _ in 0..<digits { f *= 10 }
        return .number((x * f).rounded() / f)
    }

    /// Largest magnitude printed as an integer (beyond it Double has no exact integers anyway).
    static let maxIntegral = 1e15

    func write(to out: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .string(let s): Self.writeString(s, to: &out)
        case .number(let x):
            if !x.isFinite { out += "null" }
            else if x == x.rounded(), abs(x) < Self.maxIntegral { out += String(Int64(x)) }
            else { out += "\(x)" }
        case .int(let i): out += String(i)
        case .unsigned(let u): out += String(u)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let a):
            // Pretty empties as JSONSerialization writes them, so output stays byte-compatible.
            if a.isEmpty { out += pretty ? "[\n\n" + String(repeating: "  ", count: indent) + "]" : "[]"; return }
            out += "["
            for (i, v) in a.enumerated() {
                if i > 0 { out += "," }
                if pretty { Self.newline(&out, indent + 1) }
                v.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { Self.newline(&out, indent) }
            out += "]"
        case .object(let o):
            if o.isEmpty { out += pretty ? "{\n\n" + String(repeating: "  ", count: indent) + "}" : "{}"; return }
            out += "{"
            // Sorted by UTF-8 bytes: for the ASCII keys plans use, the order JSONSerialization's
            // .sortedKeys gives (it collates non-ASCII keys by locale; these stay byte-ordered).
            for (i, m) in o.sortedMembers().enumerated() {
                if i > 0 { out += "," }
                if pretty { Self.newline(&out, indent + 1) }
                Self.writeString(m.key, to: &out)
                out += pretty ? " : " : ":"
                m.value.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { Self.newline(&out, indent) }
            out += "}"
        }
    }

    static func newline(_ out: inout String, _ indent: Int) {
        out += "\n"
        for _ in 0..<indent { out += "  " }
    }

    /// A quoted JSON string: quote, backslash, C0, DEL and C1 control characters escaped.
    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                // C0 controls must be escaped (RFC 8259); DEL and the C1 controls may be raw
                // there, but a C1 byte such as U+009B (CSI) is an escape sequence to a terminal
                // that shows the document, so they are escaped as well.
                if u.value < 0x20 || (0x7F...0x9F).contains(u.value) {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}
