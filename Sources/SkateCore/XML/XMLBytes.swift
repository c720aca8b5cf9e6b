#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte-level pieces of the XML tokenizer: character classes, encoding checks, line numbers and
/// the decoding of text and attribute values.
package enum XMLBytes {
    package static let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), amp = UInt8(ascii: "&")
    package static let slash = UInt8(ascii: "/"), equals = UInt8(ascii: "="), semicolon = UInt8(ascii: ";")
    package static let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'")
    package static let lf: UInt8 = 0x0A, cr: UInt8 = 0x0D, tab: UInt8 = 0x09, space: UInt8 = 0x20

    /// Longest entity or character reference body looked at for its `;` (`#x10FFFF` is 8 bytes,
    /// `quot` 4; a longer run before `;` is a bare `&`, not a reference).
    package static let maxReferenceLength = 32

    @inline(__always)
    package static func isSpace(_ c: UInt8) -> Bool { c == space || c == lf || c == tab || c == cr }

    /// Ends a tag or attribute name.
    @inline(__always)
    package static func isNameEnd(_ c: UInt8) -> Bool { isSpace(c) || c == slash || c == gt || c == equals }

    /// XML NameStartChar, loosely: ASCII letters, `_`, `:`, and any non-ASCII byte.
    @inline(__always)
    package static func isNameStart(_ c: UInt8) -> Bool {
        (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") || c >= 0x80
    }

    /// XML NameChar, loosely: a start character, a digit, `-` or `.`.
    @inline(__always)
    package static func isNameChar(_ c: UInt8) -> Bool {
        isNameStart(c) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
    }

    /// True when `c` is a character XML 1.0 allows in a document (its `Char` production).
    package static func isXMLChar(_ c: UInt32) -> Bool {
        c == 0x09 || c == 0x0A || c == 0x0D || (0x20...0xD7FF).contains(c) || (0xE000...0xFFFD).contains(c)
            || (0x1_0000...0x10_FFFF).contains(c)
    }

    /// Line ends in `p[start..<end]`: LF, CR LF (counted once, at the CR) and a lone CR each end
    /// a line. `previous` is the byte before `p[start]` (0 if none), so a CR LF split across two
    /// calls still counts once.
    package static func lineEnds(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, previous: UInt8) -> Int {
        guard start < end else { return 0 }
        // Fast path (files with LF line ends): count LFs with memchr when there is no CR.
        if memchr(p + start, Int32(cr), end - start) == nil {
            var count = 0
            var i = start
            while i < end, let hit = memchr(p + i, Int32(lf), end - i) {
                count += 1
                i = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - p + 1
            }
            return previous == cr && p[start] == lf ? count - 1 : count
        }
        var count = 0
        var before = previous
        var i = start
        while i < end {
            let c = p[i]
            if c == cr || (c == lf && before != cr) { count += 1 }
            before = c
            i += 1
        }
        return count
    }

    /// What `validate` found: how far the bytes are good, and the first bad one if any.
    package struct Validation {
        /// Bytes before this offset are well-formed UTF-8 and allowed XML characters.
        package var goodUntil: Int
        /// The first byte that is not well-formed UTF-8, or a character XML forbids (C0 controls
        /// other than tab and line breaks, U+FFFE, U+FFFF), with what is wrong.
        package var bad: (offset: Int, problem: String)?
    }

    /// Checks `p[start..<n]`. When `final` is false a sequence cut off by `n` is left unchecked
    /// (`goodUntil` stops before it) for the next call, which will have its remaining bytes.
    package static func validate(_ p: UnsafePointer<UInt8>, from start: Int, to n: Int, final: Bool) -> Validation {
        var i = start
        @inline(__always) func isContinuation(_ k: Int) -> Bool { k < n && p[k] & 0xC0 == 0x80 }
        func bad(_ k: Int, _ problem: String) -> Validation { Validation(goodUntil: k, bad: (k, problem)) }
        while i < n {
            // Eight plain ASCII bytes at a time: none ≥ 0x80 and none below 0x20.
            while i + 8 <= n {
                let w = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                let high: UInt64 = 0x8080_8080_8080_8080
                if (w | (w &- 0x2020_2020_2020_2020)) & high != 0 { break }
                i += 8
            }
            guard i < n else { break }
            let c = p[i]
            if c < 0x80 {
                if c < 0x20, c != tab, c != lf, c != cr {
                    return bad(i, "control character 0x\(String(c, radix: 16, uppercase: true)) is not allowed in XML (a binary file?)")
                }
                i += 1
                continue
            }
            let length: Int
            var secondLow: UInt8 = 0x80, secondHigh: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; secondLow = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; secondHigh = 0x9F  // no UTF-16 surrogates
            case 0xF0: length = 4; secondLow = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; secondHigh = 0x8F  // nothing above U+10FFFF
            default: return bad(i, "invalid UTF-8 byte 0x\(String(c, radix: 16, uppercase: true)) (the file must be UTF-8)")
            }
            if !final, i + length > n { return Validation(goodUntil: i, bad: nil) }
            guard i + 1 < n, p[i + 1] >= secondLow, p[i + 1] <= secondHigh else {
                return bad(i, "invalid UTF-8 sequence (the file must be UTF-8)")
            }
            for k in 2..<length where !isContinuation(i + k) {
                return bad(i, "invalid UTF-8 sequence (the file must be UTF-8)")
            }
            if c == 0xEF, p[i + 1] == 0xBF, p[i + 2] >= 0xBE {
                return bad(i, "character U+FFFE/U+FFFF is not allowed in XML")
            }
            i += length
        }
        return Validation(goodUntil: n, bad: nil)
    }

    /// The value of `encoding="…"` in an XML declaration starting at `start`, if there is one.
    package static func declaredEncoding(_ p: UnsafePointer<UInt8>, from start: Int, count: Int) -> String? {
        let b = UnsafeBufferPointer(start: p, count: count)
        let head: [UInt8] = Array("<?xml".utf8)
        guard b.count > start + head.count, Array(b[start..<start + head.count]) == head,
              isSpace(b[start + head.count]) else { return nil }
        // The declaration is short; look no further than this for its end.
        let declarationLimit = 512
        let end = min(b.count, start + declarationLimit)
        var i = start + head.count
        let key: [UInt8] = Array("encoding".utf8)
        while i + key.count < end, !(b[i] == UInt8(ascii: "?") && b[i + 1] == gt) {
            if Array(b[i..<i + key.count]) == key {
                var j = i + key.count
                while j < end, isSpace(b[j]) { j += 1 }
                guard j < end, b[j] == equals else { return nil }
                j += 1
                while j < end, isSpace(b[j]) { j += 1 }
                guard j < end, b[j] == quote || b[j] == apostrophe else { return nil }
                let q = b[j]
                let valueStart = j + 1
                var k = valueStart
                while k < end, b[k] != q { k += 1 }
                guard k < end else { return nil }
                return String(decoding: b[valueStart..<k], as: UTF8.self)
            }
            i += 1
        }
        return nil
    }

    /// ISO-8859-1 bytes `p[0..<count]` re-encoded as UTF-8 into `out` (each byte is the code
    /// point; `out` has room for `2 × count`); returns the bytes written.
    package static func latin1ToUTF8(_ p: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var o = 0
        for i in 0..<count {
            let c = p[i]
            if c < 0x80 {
                out[o] = c; o += 1
            } else {
                out[o] = 0xC0 | (c >> 6); out[o + 1] = 0x80 | (c & 0x3F); o += 2
            }
        }
        return o
    }

    /// A decoding problem, at a byte offset.
    package struct DecodeError: Error {
        package var offset: Int
        package var message: String
    }

    /// Text or an attribute value from `b[start..<end]` with references decoded. Line breaks
    /// (CR LF, lone CR) become LF in text; in attribute values literal tabs and line breaks
    /// become spaces. Only the five predefined entities exist: no DTD entity is ever expanded.
    package static func decode(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, attribute: Bool) throws(DecodeError) -> String {
        var i = start
        while i < end {
            let c = p[i]
            if c == amp || c == cr || (attribute && (c == lf || c == tab)) { break }
            i += 1
        }
        if i == end { return String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: p[start..<i]))
        while i < end {
            let c = p[i]
            switch c {
            case cr:
                out.append(attribute ? space : lf)
                i += (i + 1 < end && p[i + 1] == lf) ? 2 : 1
            case lf where attribute, tab where attribute:
                out.append(space)
                i += 1
            case amp:
                i = try reference(p, at: i, end: end, into: &out)
            default:
                out.append(c)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes the reference starting at `p[i]` (an `&`) into `out`; returns the index after its `;`.
    private static func reference(_ p: UnsafeBufferPointer<UInt8>, at i: Int, end: Int, into out: inout [UInt8]) throws(DecodeError) -> Int {
        var j = i + 1
        let limit = min(end, i + 1 + maxReferenceLength)
        while j < limit, p[j] != semicolon, !isSpace(p[j]), p[j] != amp { j += 1 }
        guard j < limit, p[j] == semicolon, j > i + 1 else {
            throw DecodeError(offset: i, message: "a bare '&' (write &amp;) near \"\(excerpt(p, i, min(end, i + 12)))\"")
        }
        let body = UnsafeBufferPointer(rebasing: p[(i + 1)..<j])
        let name = String(decoding: body, as: UTF8.self)
        switch name {
        case "amp": out.append(amp)
        case "lt": out.append(lt)
        case "gt": out.append(gt)
        case "quot": out.append(quote)
        case "apos": out.append(apostrophe)
        default:
            guard body[0] == UInt8(ascii: "#") else {
                throw DecodeError(offset: i, message: "entity &\(name); is not one of XML's five predefined entities (entities from a DTD are never expanded)")
            }
            let hex = body.count > 1 && body[1] == UInt8(ascii: "x")
            let digits = name.dropFirst(hex ? 2 : 1)
            guard !digits.isEmpty, digits.count <= 8, let value = UInt32(digits, radix: hex ? 16 : 10),
                  isXMLChar(value), let scalar = Unicode.Scalar(value) else {
                throw DecodeError(offset: i, message: "&\(name); is not a character XML allows")
            }
            UTF8.encode(scalar) { out.append($0) }
        }
        return j + 1
    }

    /// At most 40 characters of `p[start..<end]` for an error message, control characters as `?`.
    package static func excerpt(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        let maxCharacters = 40
        let s = String(decoding: UnsafeBufferPointer(rebasing: p[start..<min(end, start + maxCharacters * 4)]), as: UTF8.self)
        var out = String(s.unicodeScalars.prefix(maxCharacters).map { $0.value < 0x20 ? "?" : Character($0) })
        if s.unicodeScalars.count > maxCharacters || end - start > maxCharacters * 4 { out += "…" }
        return out
    }


}
