#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal non-validating XML pull tokenizer over a whole document in memory.
///
/// Call `next()` until it returns nil. It hands out start tags (qualified name, attributes),
/// end tags and text (the five predefined entities and character references decoded, CDATA
/// passed through), and skips comments, processing instructions and `<!DOCTYPE …>`. No entity
/// from a DTD is ever expanded (a reference to one is an error), so entity-expansion bombs
/// cannot work. It checks what makes a document unusable: UTF-8, names, quoted attributes,
/// nesting (a mismatched end tag is an error), a single root element, and truncation (an element
/// still open, or markup cut off, at the end). Every error names its 1-based line.
///
/// Encoding: UTF-8 with or without a BOM; a declared ISO-8859-1 is converted; UTF-16 and other
/// encodings are refused with a clear error.
///
/// Memory: the caller holds the document; the tokenizer refuses a single piece of markup or run
/// of text over `maxTokenBytes` and nesting deeper than `maxDepth`, so no event and no stack grows
/// past a fixed size whatever the input.
struct XMLPullTokenizer {
    /// Longest single tag, comment, processing instruction, CDATA section, DOCTYPE or text run
    /// accepted, in bytes: GPX fields and tags are at most a few KB, so a megabyte is garbage.
    static let maxTokenBytes = 1 << 20
    /// Deepest element nesting accepted: GPX nests under 10 deep; this bounds the open-element
    /// stack against `<a><a><a>…` garbage.
    static let maxDepth = 1_000

    private struct OpenElement {
        var nameStart: Int
        var nameCount: Int
        /// Offset of the start tag's `<`, for "opened at line …".
        var offset: Int
    }

    private let bytes: [UInt8]
    private var pos: Int
    private var open: [OpenElement] = []
    /// The end event owed for a self-closing tag.
    private var pendingEnd: String?
    private var sawRoot = false
    /// Byte offset of the markup or text that produced the last event.
    private(set) var eventOffset = 0

    /// Prepares `document` (the whole file). Checks the encoding and that every byte is UTF-8 text.
    /// - Throws: `XMLSyntaxError` for UTF-16, an unsupported declared encoding, invalid UTF-8 or
    ///   a control character.
    init(bytes document: [UInt8]) throws(XMLSyntaxError) {
        var b = document
        var start = 0
        if b.count >= 2, (b[0] == 0xFE && b[1] == 0xFF) || (b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0 && b[1] == XMLBytes.lt) || (b[0] == XMLBytes.lt && b[1] == 0) {
            throw XMLSyntaxError(line: 1, message: "UTF-16 is not supported: save the file as UTF-8")
        }
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF {
            start = 3  // a BOM says UTF-8 whatever the declaration says
        } else if let encoding = XMLBytes.declaredEncoding(b, from: 0) {
            switch encoding.lowercased() {
            case "utf-8", "utf8", "us-ascii", "ascii":
                break
            case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1":
                b = XMLBytes.latin1ToUTF8(b, from: 0)
            default:
                throw XMLSyntaxError(line: 1, message: "encoding \"\(encoding.prefix(40))\" is not supported: save the file as UTF-8")
            }
        }
        if let bad = XMLBytes.firstInvalidByte(b, from: start) {
            throw XMLSyntaxError(line: XMLBytes.line(in: b, at: bad.offset), message: bad.problem)
        }
        bytes = b
        pos = start
        eventOffset = start
    }

    /// 1-based line of the markup or text behind the last event.
    var eventLine: Int { XMLBytes.line(in: bytes, at: eventOffset) }

    /// The next event, or nil at the end of a complete document.
    /// - Throws: `XMLSyntaxError` naming the line and the problem; the tokenizer is then unusable.
    mutating func next() throws(XMLSyntaxError) -> XMLEvent? {
        if let name = pendingEnd {
            pendingEnd = nil
            return .endElement(name: name)
        }
        let n = bytes.count
        while pos < n {
            let start = pos
            eventOffset = start
            guard bytes[start] == XMLBytes.lt else {
                let end = find(XMLBytes.lt, from: start, to: n) ?? n
                pos = end
                if open.isEmpty {
                    var k = start
                    while k < end, XMLBytes.isSpace(bytes[k]) { k += 1 }
                    guard k == end else {
                        throw fail(sawRoot ? "text after the root element" : "text before the root element: not an XML document", at: k)
                    }
                    continue
                }
                guard end - start <= Self.maxTokenBytes else { throw fail("a run of text longer than \(Self.maxTokenBytes >> 20) MB", at: start) }
                return .text(try decode(start, end, attribute: false))
            }
            guard start + 1 < n else { throw fail("truncated: the file ends with '<'", at: start) }
            switch bytes[start + 1] {
            case UInt8(ascii: "?"):
                pos = try find("?>", from: start + 2, markupStart: start, what: "processing instruction") + 2
            case UInt8(ascii: "!"):
                if matches("<!--", at: start) {
                    pos = try find("-->", from: start + 4, markupStart: start, what: "comment") + 3
                } else if matches("<![CDATA[", at: start) {
                    let contentStart = start + 9
                    let close = try find("]]>", from: contentStart, markupStart: start, what: "CDATA section")
                    pos = close + 3
                    guard !open.isEmpty else { throw fail("a CDATA section outside the root element", at: start) }
                    if close > contentStart { return .text(try decode(contentStart, close, attribute: false, cdata: true)) }
                } else if matches("<!DOCTYPE", at: start) {
                    guard !sawRoot else { throw fail("<!DOCTYPE> after the root element started", at: start) }
                    pos = try skipDoctype(start)
                } else {
                    throw fail("unknown markup \"\(XMLBytes.excerpt(bytes, start, min(n, start + 12)))\"", at: start)
                }
            case XMLBytes.slash:
                return try endTag(start)
            default:
                return try startTag(start)
            }
        }
        eventOffset = n
        if let top = open.last {
            throw fail("truncated: <\(name(top))> (opened at line \(XMLBytes.line(in: bytes, at: top.offset))) is not closed at the end of the file", at: n)
        }
        guard sawRoot else { throw fail(n == 0 ? "empty file: no XML root element" : "no XML root element", at: n) }
        return nil
    }

    // MARK: Tags

    private mutating func startTag(_ start: Int) throws(XMLSyntaxError) -> XMLEvent {
        let limit = min(bytes.count, start + Self.maxTokenBytes)
        var i = start + 1
        let nameStart = i
        while i < limit, !XMLBytes.isNameEnd(bytes[i]) { i += 1 }
        let nameEnd = i
        let element = OpenElement(nameStart: nameStart, nameCount: nameEnd - nameStart, offset: start)
        guard i < limit else { throw tagCutOff(element, limit: limit) }
        try checkName(nameStart, nameEnd, tagStart: start, what: "element")
        if sawRoot, open.isEmpty { throw fail("a second root element <\(name(element))>", at: start) }
        var attributes: [XMLAttribute] = []
        var selfClosing = false
        while true {
            let before = i
            while i < limit, XMLBytes.isSpace(bytes[i]) { i += 1 }
            guard i < limit else { throw tagCutOff(element, limit: limit) }
            let c = bytes[i]
            if c == XMLBytes.gt { i += 1; break }
            if c == XMLBytes.slash {
                guard i + 1 < limit else { throw tagCutOff(element, limit: limit) }
                guard bytes[i + 1] == XMLBytes.gt else { throw fail("a '/' inside the tag <\(name(element))>", at: start) }
                selfClosing = true
                i += 2
                break
            }
            guard i > before else { throw fail("no space before an attribute in <\(name(element))>", at: start) }
            let attributeStart = i
            while i < limit, !XMLBytes.isNameEnd(bytes[i]) { i += 1 }
            let attributeEnd = i
            guard i < limit else { throw tagCutOff(element, limit: limit) }
            try checkName(attributeStart, attributeEnd, tagStart: start, what: "attribute")
            let attributeName = string(attributeStart, attributeEnd)
            while i < limit, XMLBytes.isSpace(bytes[i]) { i += 1 }
            guard i < limit else { throw tagCutOff(element, limit: limit) }
            guard bytes[i] == XMLBytes.equals else { throw fail("attribute \(attributeName.prefix(40)) of <\(name(element))> has no value", at: start) }
            i += 1
            while i < limit, XMLBytes.isSpace(bytes[i]) { i += 1 }
            guard i < limit else { throw tagCutOff(element, limit: limit) }
            let q = bytes[i]
            guard q == XMLBytes.quote || q == XMLBytes.apostrophe else {
                throw fail("the value of attribute \(attributeName.prefix(40)) of <\(name(element))> is not quoted", at: start)
            }
            i += 1
            let valueStart = i
            guard let valueEnd = find(q, from: valueStart, to: limit) else { throw tagCutOff(element, limit: limit) }
            if let bad = find(XMLBytes.lt, from: valueStart, to: valueEnd) {
                throw fail("a '<' in the value of attribute \(attributeName.prefix(40)) of <\(name(element))>", at: bad)
            }
            let value = try decode(valueStart, valueEnd, attribute: true)
            guard !attributes.contains(where: { $0.name == attributeName }) else {
                throw fail("attribute \(attributeName.prefix(40)) appears twice in <\(name(element))>", at: start)
            }
            attributes.append(XMLAttribute(name: attributeName, value: value))
            i = valueEnd + 1
        }
        pos = i
        sawRoot = true
        let elementName = string(nameStart, nameEnd)
        if selfClosing {
            pendingEnd = elementName
        } else {
            guard open.count < Self.maxDepth else { throw fail("elements nested deeper than \(Self.maxDepth)", at: start) }
            open.append(element)
        }
        return .startElement(name: elementName, attributes: attributes)
    }

    private mutating func endTag(_ start: Int) throws(XMLSyntaxError) -> XMLEvent {
        let limit = min(bytes.count, start + Self.maxTokenBytes)
        var i = start + 2
        let nameStart = i
        while i < limit, !XMLBytes.isNameEnd(bytes[i]) { i += 1 }
        let nameEnd = i
        while i < limit, XMLBytes.isSpace(bytes[i]) { i += 1 }
        guard i < limit else {
            throw fail(limit == bytes.count ? "truncated: the file ends inside an end tag" : "an end tag longer than \(Self.maxTokenBytes >> 20) MB", at: start)
        }
        guard bytes[i] == XMLBytes.gt, nameEnd > nameStart else {
            throw fail("malformed end tag \"\(XMLBytes.excerpt(bytes, start, i + 1))\"", at: start)
        }
        var closing: String { XMLBytes.excerpt(bytes, nameStart, nameEnd) }
        guard let top = open.last else {
            throw fail("</\(closing)> closes nothing\(sawRoot ? " (the root element is already closed)" : "")", at: start)
        }
        guard top.nameCount == nameEnd - nameStart, bytes[top.nameStart..<top.nameStart + top.nameCount] == bytes[nameStart..<nameEnd] else {
            throw fail("</\(closing)> closes <\(name(top))> (opened at line \(XMLBytes.line(in: bytes, at: top.offset)))", at: start)
        }
        open.removeLast()
        pos = i + 1
        return .endElement(name: string(nameStart, nameEnd))
    }

    /// Index just past `<!DOCTYPE …>` at `start`, skipping an internal subset in brackets (its
    /// declarations are read past, never used).
    private func skipDoctype(_ start: Int) throws(XMLSyntaxError) -> Int {
        let limit = min(bytes.count, start + Self.maxTokenBytes)
        var i = start + 9
        var depth = 0
        var q: UInt8 = 0
        while i < limit {
            let c = bytes[i]
            if q != 0 {
                if c == q { q = 0 }
            } else if depth > 0, matches("<!--", at: i) {
                i = try find("-->", from: i + 4, markupStart: start, what: "DOCTYPE") + 2
            } else if c == XMLBytes.quote || c == XMLBytes.apostrophe {
                q = c
            } else if c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "]") {
                depth -= 1
            } else if c == XMLBytes.gt, depth <= 0 {
                return i + 1
            }
            i += 1
        }
        throw fail(limit == bytes.count ? "truncated: the file ends inside <!DOCTYPE>" : "a DOCTYPE longer than \(Self.maxTokenBytes >> 20) MB", at: start)
    }

    // MARK: Helpers

    private func checkName(_ start: Int, _ end: Int, tagStart: Int, what: String) throws(XMLSyntaxError) {
        guard end > start else {
            throw fail("a tag without an \(what) name: \"\(XMLBytes.excerpt(bytes, tagStart, min(bytes.count, tagStart + 12)))\"", at: tagStart)
        }
        var ok = XMLBytes.isNameStart(bytes[start])
        var k = start + 1
        while ok, k < end { ok = XMLBytes.isNameChar(bytes[k]); k += 1 }
        guard ok else { throw fail("invalid \(what) name \"\(XMLBytes.excerpt(bytes, start, end))\"", at: tagStart) }
    }

    private func tagCutOff(_ element: OpenElement, limit: Int) -> XMLSyntaxError {
        fail(limit == bytes.count ? "truncated: the file ends inside the tag <\(name(element))"
                                  : "the tag <\(name(element))> is longer than \(Self.maxTokenBytes >> 20) MB", at: element.offset)
    }

    private func name(_ e: OpenElement) -> String { XMLBytes.excerpt(bytes, e.nameStart, e.nameStart + e.nameCount) }

    private func string(_ start: Int, _ end: Int) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
    }

    private func decode(_ start: Int, _ end: Int, attribute: Bool, cdata: Bool = false) throws(XMLSyntaxError) -> String {
        if cdata {
            // Verbatim apart from line-break normalisation: no '&' is special in CDATA.
            guard find(XMLBytes.cr, from: start, to: end) != nil else { return string(start, end) }
            var out: [UInt8] = []
            out.reserveCapacity(end - start)
            var k = start
            while k < end {
                if bytes[k] == XMLBytes.cr {
                    out.append(XMLBytes.lf)
                    if k + 1 < end, bytes[k + 1] == XMLBytes.lf { k += 1 }
                } else {
                    out.append(bytes[k])
                }
                k += 1
            }
            return String(decoding: out, as: UTF8.self)
        }
        do {
            return try XMLBytes.decode(bytes, start, end, attribute: attribute)
        } catch {
            throw fail(error.message, at: error.offset)
        }
    }

    private func fail(_ message: String, at offset: Int) -> XMLSyntaxError {
        XMLSyntaxError(line: XMLBytes.line(in: bytes, at: offset), message: message)
    }

    private func matches(_ s: StaticString, at i: Int) -> Bool {
        let n = s.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        return bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + i, s.utf8Start, n) == 0 }
    }

    /// Index of the first `byte` in `bytes[from..<to]`, or nil.
    private func find(_ byte: UInt8, from: Int, to: Int) -> Int? {
        guard from < to else { return nil }
        return bytes.withUnsafeBufferPointer { p -> Int? in
            guard let hit = memchr(p.baseAddress! + from, Int32(byte), to - from) else { return nil }
            return UnsafeRawPointer(hit) - UnsafeRawPointer(p.baseAddress!)
        }
    }

    /// Index of `terminator` at or after `from`, looking no further than `maxTokenBytes` past
    /// `markupStart`.
    private func find(_ terminator: StaticString, from: Int, markupStart: Int, what: String) throws(XMLSyntaxError) -> Int {
        let limit = min(bytes.count, markupStart + Self.maxTokenBytes)
        let first = terminator.utf8Start[0]
        var i = from
        while let hit = find(first, from: i, to: limit) {
            if matches(terminator, at: hit), hit + terminator.utf8CodeUnitCount <= limit { return hit }
            i = hit + 1
        }
        throw fail(limit == bytes.count ? "truncated: the file ends inside a \(what)" : "a \(what) longer than \(Self.maxTokenBytes >> 20) MB", at: markupStart)
    }
}
