import Foundation

/// A small JSON tree for exports, encoded with sorted keys so output is stable.
public enum JSONValue: Encodable, Sendable, Equatable {
    case string(String), number(Double), int(Int64), bool(Bool), null
    case array([JSONValue]), object([String: JSONValue])

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .string(let s): try c.encode(s)
        case .number(let d): if d.isFinite { try c.encode(d) } else { try c.encodeNil() }
        case .int(let i): try c.encode(i)
        case .bool(let b): try c.encode(b)
        case .null: try c.encodeNil()
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// Compact or pretty JSON text with sorted keys.
    public func text(pretty: Bool = false) -> String {
        let enc = JSONEncoder()
        enc.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return (try? enc.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// A number rounded to `digits` decimals (coordinates: 7 ≈ 1 cm; figures: 3).
    public static func rounded(_ x: Double, _ digits: Int) -> JSONValue {
        let f = pow(10, Double(digits))
        return .number((x * f).rounded() / f)
    }
}
