#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `XMLTokenizer` gets its bytes: a file, a decompressor, or a document in memory.
package protocol XMLByteInput {
    /// Reads up to `count` bytes into `buffer`; returns 0 at the end of the input.
    mutating func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int
}

/// A whole document already in memory.
package struct XMLArrayInput: XMLByteInput {
    private let bytes: [UInt8]
    private var offset = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package mutating func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        let n = min(count, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBufferPointer { _ = memcpy(buffer, $0.baseAddress! + offset, n) }
        offset += n
        return n
    }
}

/// Why `XMLTokenizer.next` stopped: the document is not well-formed, or its input failed.
package enum XMLTokenizerError: Error {
    case syntax(XMLSyntaxError)
    /// What the input's `read` threw, unchanged.
    case input(any Error)
}

/// SkateRoute's one XML tokenizer, shared by the OSM XML and GPX readers: a non-validating pull
/// tokenizer that streams any `XMLByteInput` through a sliding window.
///
/// Call `next()` until it returns nil. It hands out start tags, end tags (a self-closing tag is
/// followed at once by its end tag), text and CDATA; it skips comments, processing instructions
/// and `<!DOCTYPE …>`. The current token's name, attributes and text are read through accessors
/// straight from the window (valid until the next call), so a reader that wants three numbers
/// out of a tag builds no strings; values are decoded (the five predefined entities, character
/// references, line-break normalisation) only when asked. No entity from a DTD is ever expanded
/// (a reference to one is an error), so entity-expansion bombs cannot work.
///
/// It checks what makes a document unusable: UTF-8 (UTF-16 and undeclared encodings refused,
/// a declared ISO-8859-1 converted), names, quoted and unique attributes, nesting, a single root
/// element, and truncation. Every error names its 1-based line.
///
/// Memory: one window, bounded by `maxTokenBytes` plus a read chunk whatever the document's
/// size; nesting is bounded by `maxDepth`.
///
/// Hand-written rather than Foundation's `XMLParser`: `XMLParser(data:)` refuses documents over
/// 10 MB (Monaco's OSM XML is 10.1 MB) and hands every element's attributes over as a fresh
/// dictionary (~1.4 M callbacks/s on an OSM file), and its module drags ~8 ms of start-up into
/// every process that links it.
package struct XMLTokenizer {
    /// Longest single tag, comment, processing instruction, CDATA section, DOCTYPE or text run
    /// accepted, in bytes: OSM tags and GPX fields are at most a few KB, so a megabyte is garbage.
    package static var maxTokenBytes: Int { 1 << 20 }
    /// Deepest element nesting accepted: OSM and GPX nest under 10 deep; this bounds the
    /// open-element stack against `<a><a><a>…` garbage.
    package static var maxDepth: Int { 1_000 }
    /// Bytes asked of the input per read by default.
    package static var defaultChunkBytes: Int { 1 << 20 }
    /// The window grows when less than this much room is left for a read.
    static var minReadRoom: Int { 4096 }
    /// Bytes of text quoted before a bad byte in its error, so the rider can find it.
    static var contextBytes: Int { 24 }
    /// Bytes of the document's start looked at for a BOM and an XML declaration.
    static var sniffBytes: Int { 512 }

    /// What `next()` found.
    package enum Token: Equatable, Sendable {
        /// `<name …>` or `<name/>`: `name`, `attributeCount`, `selfClosing`.
        case startElement
        /// `</name>` or the end of a self-closing tag: `name`.
        case endElement
        /// Character data inside the root element: `text()`.
        case text
        /// A CDATA section inside the root element: `text()` (verbatim).
        case cdata
    }

    /// The window's storage.
    private final class Storage {
        var bytes: UnsafeMutablePointer<UInt8>
        var capacity: Int
        init(capacity: Int) {
            self.capacity = capacity
            bytes = .allocate(capacity: capacity)
        }
        func grow(to newCapacity: Int, keeping count: Int) {
            let b = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            b.update(from: bytes, count: count)
            bytes.deallocate()
            bytes = b
            capacity = newCapacity
        }
        deinit { bytes.deallocate() }
    }

    private struct Attribute { var name: Int; var nameCount: Int; var value: Int; var valueCount: Int }

    /// An existential, not a generic parameter: it is called once per read chunk, and a
    /// non-generic tokenizer is compiled (and optimised) once in this module for every reader.
    private var input: any XMLByteInput
    private let storage: Storage
    private let chunkBytes: Int
    /// First unconsumed byte, end of the bytes read, end of the bytes checked as UTF-8.
    private var start = 0, end = 0, checked = 0
    private var inputEnded = false
    private var latin1 = false
    private var bytesRead = 0
    /// Line of `start`, and the byte before it (so CR LF split by `start` counts once).
    private var lineAtStart = 1
    private var byteBeforeStart: UInt8 = 0

    // The current token.
    private var tokenOffset = 0
    private var byteBeforeToken: UInt8 = 0
    /// 1-based line where the current token starts.
    package private(set) var tokenLine = 1
    private var nameStart = 0, nameCount = 0
    private var attributes: [Attribute] = []
    private var textStart = 0, textEnd = 0
    private var isCDATA = false
    /// Whether the current start tag closes itself (`<a/>`).
    package private(set) var selfClosing = false
    private var pendingEnd = false

    private var open: [(name: String, line: Int)] = []
    private var sawRoot = false
    private var finished = false

    /// Prepares a document: reads its first bytes and checks the encoding.
    /// - Parameter chunkBytes: bytes asked of `input` per read (a whole in-memory document: its size).
    /// - Throws: `.syntax` for UTF-16 or an unsupported declared encoding; `.input` when reading fails.
    package init(input: any XMLByteInput, chunkBytes: Int = Self.defaultChunkBytes) throws(XMLTokenizerError) {
        self.input = input
        self.chunkBytes = max(1, chunkBytes)
        storage = Storage(capacity: self.chunkBytes + Self.minReadRoom)
        attributes.reserveCapacity(16)
        while end < Self.sniffBytes, !inputEnded { try readRaw() }
        let b = storage.bytes
        if end >= 2, (b[0] == 0xFE && b[1] == 0xFF) || (b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0 && b[1] == XMLBytes.lt) || (b[0] == XMLBytes.lt && b[1] == 0) {
            throw .syntax(XMLSyntaxError(line: 1, message: "UTF-16 is not supported: save the file as UTF-8"))
        }
        if end >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF {
            start = 3  // a BOM says UTF-8 whatever the declaration says
            checked = 3
        } else if let encoding = XMLBytes.declaredEncoding(b, from: 0, count: end) {
            switch encoding.lowercased() {
            case "utf-8", "utf8", "us-ascii", "ascii":
                break
            case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1":
                latin1 = true
                let raw = Array(UnsafeBufferPointer(start: b, count: end))
                if storage.capacity < 2 * end + Self.minReadRoom { storage.grow(to: 2 * end + Self.minReadRoom, keeping: 0) }
                end = raw.withUnsafeBufferPointer { XMLBytes.latin1ToUTF8($0.baseAddress!, count: raw.count, into: storage.bytes) }
            default:
                throw .syntax(XMLSyntaxError(line: 1, message: "encoding \"\(encoding.prefix(40))\" is not supported: save the file as UTF-8"))
            }
        }
        try check()
    }

    // MARK: Reading

    /// Reads once into the free room (converting ISO-8859-1), growing the window when it is short of room.
    private mutating func readRaw() throws(XMLTokenizerError) {
        if storage.capacity - end < Self.minReadRoom {
            storage.grow(to: max(storage.capacity * 2, end + chunkBytes + Self.minReadRoom), keeping: end)
        }
        let room = storage.capacity - end
        do {
            if latin1 {
                var raw = [UInt8](repeating: 0, count: min(room / 2, chunkBytes))
                let n = try raw.withUnsafeMutableBufferPointer { try input.read(into: $0.baseAddress!, count: $0.count) }
                bytesRead += n
                if n == 0 { inputEnded = true }
                end += raw.withUnsafeBufferPointer { XMLBytes.latin1ToUTF8($0.baseAddress!, count: n, into: storage.bytes + end) }
            } else {
                let n = try input.read(into: storage.bytes + end, count: min(room, chunkBytes))
                bytesRead += n
                if n == 0 { inputEnded = true }
                end += n
            }
        } catch {
            throw .input(error)
        }
    }

    /// Checks the new bytes are UTF-8 text XML allows.
    private mutating func check() throws(XMLTokenizerError) {
        let v = XMLBytes.validate(storage.bytes, from: checked, to: end, final: inputEnded)
        if let bad = v.bad {
            // Where it is: the text just before it (cleaned of control characters by `excerpt`).
            let from = max(start, bad.offset - Self.contextBytes)
            let context = bad.offset > from ? " after \"\(from > start ? "…" : "")\(excerpt(from, bad.offset))\"" : ""
            throw .syntax(XMLSyntaxError(line: line(at: bad.offset), message: bad.problem + context))
        }
        checked = v.goodUntil
    }

    /// Moves the unconsumed bytes to the front of the window and reads more.
    private mutating func readMore() throws(XMLTokenizerError) {
        if start > 0 {
            let keep = end - start
            if keep > 0 { memmove(storage.bytes, storage.bytes + start, keep) }
            end -= start
            checked -= start
            start = 0
        }
        try readRaw()
        try check()
    }

    /// Consumes up to `index`, keeping the line count.
    private mutating func advance(to index: Int) {
        guard index > start else { return }
        lineAtStart += XMLBytes.lineEnds(storage.bytes, start, index, previous: byteBeforeStart)
        byteBeforeStart = storage.bytes[index - 1]
        start = index
    }

    /// 1-based line of window index `i` (at or after `start`).
    private func line(at i: Int) -> Int {
        lineAtStart + XMLBytes.lineEnds(storage.bytes, start, max(start, min(i, end)), previous: byteBeforeStart)
    }

    /// 1-based line of window index `i` inside the current token.
    private func tokenLine(at i: Int) -> Int {
        tokenLine + XMLBytes.lineEnds(storage.bytes, tokenOffset, max(tokenOffset, i), previous: byteBeforeToken)
    }

    private func fail(_ message: String, at i: Int) -> XMLTokenizerError {
        .syntax(XMLSyntaxError(line: line(at: i), message: message))
    }

    /// Bytes the window holds room for (tests check it stays bounded).
    var windowCapacity: Int { storage.capacity }

    private var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage.bytes, count: end) }

    private func excerpt(_ from: Int, _ to: Int) -> String { XMLBytes.excerpt(buffer, from, min(to, end)) }

    private func string(_ from: Int, _ count: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: storage.bytes + from, count: count), as: UTF8.self)
    }

    // MARK: Tokens

    /// The next token, or nil at the end of a complete document.
    /// - Throws: `.syntax` naming the line and the problem, `.input` when reading fails; the tokenizer is then unusable.
    package mutating func next() throws(XMLTokenizerError) -> Token? {
        if pendingEnd {
            pendingEnd = false
            selfClosing = false
            return .endElement
        }
        let limit = Self.maxTokenBytes
        while true {
            if start >= end {
                if inputEnded { return try finish() }
                try readMore()
                continue
            }
            let b = storage.bytes
            tokenOffset = start
            tokenLine = lineAtStart
            byteBeforeToken = byteBeforeStart
            guard b[start] == XMLBytes.lt else {
                // Text up to the next '<'.
                let hit = memchr(b + start, Int32(XMLBytes.lt), end - start).map { $0.assumingMemoryBound(to: UInt8.self) - b }
                let textEnd = hit ?? end
                if open.isEmpty {
                    var k = start
                    while k < textEnd, XMLBytes.isSpace(b[k]) { k += 1 }
                    guard k == textEnd else {
                        throw fail(sawRoot ? "text after the root element" : "text before the root element: not an XML document", at: k)
                    }
                    advance(to: textEnd)
                    continue
                }
                guard textEnd - start <= limit else { throw fail("a run of text longer than \(limit >> 20) MB", at: start) }
                if hit == nil, !inputEnded { try readMore(); continue }
                textStart = start
                self.textEnd = textEnd
                isCDATA = false
                advance(to: textEnd)
                return .text
            }
            guard let (kind, after) = try markup() else {
                try readMore()
                continue
            }
            switch kind {
            case .instruction, .comment:
                advance(to: after)
            case .cdata:
                guard !open.isEmpty else { throw fail("a CDATA section outside the root element", at: start) }
                textStart = start + 9
                textEnd = after - 3
                isCDATA = true
                advance(to: after)
                if textEnd > textStart { return .cdata }
            case .doctype:
                guard !sawRoot else { throw fail("<!DOCTYPE> after the root element started", at: start) }
                advance(to: after)
            case .endTag:
                try endTag(after)
                advance(to: after)
                return .endElement
            case .startTag:
                try startTag(after)
                advance(to: after)
                return .startElement
            }
        }
    }

    private enum Markup { case instruction, comment, cdata, doctype, endTag, startTag }

    private enum Prefix { case yes, no, needMore }

    private func hasPrefix(_ s: StaticString, at i: Int) -> Prefix {
        let n = s.utf8CodeUnitCount
        let have = min(n, end - i)
        if memcmp(storage.bytes + i, s.utf8Start, have) != 0 { return .no }
        return have == n ? .yes : (inputEnded ? .no : .needMore)
    }

    /// The markup at `start` (a '<') and the index just past it; nil when more bytes are needed.
    /// - Throws: truncation at the end of the input, markup longer than `maxTokenBytes`, unknown markup.
    private func markup() throws(XMLTokenizerError) -> (Markup, Int)? {
        let b = storage.bytes
        let limit = min(end, start + Self.maxTokenBytes)
        let cutOff = end - start > Self.maxTokenBytes
        func incomplete(_ what: String, truncated: String? = nil) throws(XMLTokenizerError) -> (Markup, Int)? {
            if cutOff { throw fail("\(what) longer than \(Self.maxTokenBytes >> 20) MB", at: start) }
            if inputEnded { throw fail(truncated ?? "truncated: the file ends inside \(what)", at: start) }
            return nil
        }
        guard start + 1 < end else {
            if inputEnded { throw fail("truncated: the file ends with '<'", at: start) }
            return nil
        }
        switch b[start + 1] {
        case UInt8(ascii: "?"):
            if let k = find("?>", from: start + 2, limit: limit) { return (.instruction, k + 2) }
            return try incomplete("a processing instruction")
        case UInt8(ascii: "!"):
            switch hasPrefix("<!--", at: start) {
            case .yes:
                if let k = find("-->", from: start + 4, limit: limit) { return (.comment, k + 3) }
                return try incomplete("a comment")
            case .needMore: return nil
            case .no: break
            }
            switch hasPrefix("<![CDATA[", at: start) {
            case .yes:
                if let k = find("]]>", from: start + 9, limit: limit) { return (.cdata, k + 3) }
                return try incomplete("a CDATA section")
            case .needMore: return nil
            case .no: break
            }
            switch hasPrefix("<!DOCTYPE", at: start) {
            case .yes:
                if let k = doctypeEnd(limit: limit) { return (.doctype, k) }
                return try incomplete("a DOCTYPE", truncated: "truncated: the file ends inside <!DOCTYPE>")
            case .needMore: return nil
            case .no: throw fail("unknown markup \"\(excerpt(start, start + 12))\"", at: start)
            }
        case XMLBytes.slash:
            if let hit = memchr(b + start, Int32(XMLBytes.gt), limit - start) {
                return (.endTag, hit.assumingMemoryBound(to: UInt8.self) - b + 1)
            }
            return try incomplete("an end tag")
        default:
            // `>` ends the tag unless inside a quoted attribute value.
            var quote: UInt8 = 0
            var j = start + 1
            while j < limit {
                let c = b[j]
                if quote != 0 {
                    if c == quote { quote = 0 }
                } else if c == XMLBytes.gt {
                    return (.startTag, j + 1)
                } else if c == XMLBytes.quote || c == XMLBytes.apostrophe {
                    quote = c
                }
                j += 1
            }
            var n = start + 1
            while n < limit, !XMLBytes.isNameEnd(b[n]) { n += 1 }
            let name = excerpt(start + 1, n)
            if cutOff { throw fail("the tag <\(name)> is longer than \(Self.maxTokenBytes >> 20) MB", at: start) }
            if inputEnded { throw fail("truncated: the file ends inside the tag <\(name)", at: start) }
            return nil
        }
    }

    /// Index of `terminator` in `[from, limit)`, or nil.
    private func find(_ terminator: StaticString, from: Int, limit: Int) -> Int? {
        let b = storage.bytes
        let n = terminator.utf8CodeUnitCount
        var i = from
        while i + n <= limit, let hit = memchr(b + i, Int32(terminator.utf8Start[0]), limit - i) {
            let k = hit.assumingMemoryBound(to: UInt8.self) - b
            if k + n <= limit, memcmp(b + k, terminator.utf8Start, n) == 0 { return k }
            i = k + 1
        }
        return nil
    }

    /// Index just past `<!DOCTYPE …>` at `start`, reading past an internal subset in brackets
    /// (its declarations are never used); nil if it does not end before `limit`.
    private func doctypeEnd(limit: Int) -> Int? {
        let b = storage.bytes
        var i = start + 9
        var depth = 0
        var q: UInt8 = 0
        while i < limit {
            let c = b[i]
            if q != 0 {
                if c == q { q = 0 }
            } else if depth > 0, i + 4 <= limit, memcmp(b + i, "<!--", 4) == 0 {
                guard let k = find("-->", from: i + 4, limit: limit) else { return nil }
                i = k + 2
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
        return nil
    }

    private mutating func endTag(_ after: Int) throws(XMLTokenizerError) {
        let b = storage.bytes
        var i = start + 2
        nameStart = i
        while i < after, !XMLBytes.isNameEnd(b[i]) { i += 1 }
        nameCount = i - nameStart
        while i < after, XMLBytes.isSpace(b[i]) { i += 1 }
        guard i == after - 1, nameCount > 0 else {
            throw fail("malformed end tag \"\(excerpt(start, after))\"", at: start)
        }
        guard let top = open.last else {
            throw fail("</\(excerpt(nameStart, nameStart + nameCount))> closes nothing\(sawRoot ? " (the root element is already closed)" : "")", at: start)
        }
        guard top.name.utf8.count == nameCount, top.name.utf8.elementsEqual(UnsafeBufferPointer(start: b + nameStart, count: nameCount)) else {
            throw fail("</\(excerpt(nameStart, nameStart + nameCount))> closes <\(top.name)> (opened at line \(top.line))", at: start)
        }
        open.removeLast()
        selfClosing = false
    }

    private mutating func startTag(_ after: Int) throws(XMLTokenizerError) {
        let b = storage.bytes
        let limit = after - 1  // the closing '>'
        var i = start + 1
        nameStart = i
        while i < limit, !XMLBytes.isNameEnd(b[i]) { i += 1 }
        nameCount = i - nameStart
        try checkName(nameStart, i, what: "element")
        var elementName: String { excerpt(nameStart, nameStart + nameCount) }
        if sawRoot, open.isEmpty { throw fail("a second root element <\(elementName)>", at: start) }
        attributes.removeAll(keepingCapacity: true)
        selfClosing = false
        while true {
            let before = i
            while i < limit, XMLBytes.isSpace(b[i]) { i += 1 }
            if i == limit { break }
            if b[i] == XMLBytes.slash {
                guard i + 1 == limit else { throw fail("a '/' inside the tag <\(elementName)>", at: start) }
                selfClosing = true
                break
            }
            guard i > before else { throw fail("no space before an attribute in <\(elementName)>", at: start) }
            let attributeStart = i
            while i < limit, !XMLBytes.isNameEnd(b[i]) { i += 1 }
            let attributeEnd = i
            try checkName(attributeStart, attributeEnd, what: "attribute")
            var attributeName: String { excerpt(attributeStart, attributeEnd) }
            while i < limit, XMLBytes.isSpace(b[i]) { i += 1 }
            guard i < limit, b[i] == XMLBytes.equals else { throw fail("attribute \(attributeName) of <\(elementName)> has no value", at: start) }
            i += 1
            while i < limit, XMLBytes.isSpace(b[i]) { i += 1 }
            guard i < limit, b[i] == XMLBytes.quote || b[i] == XMLBytes.apostrophe else {
                throw fail("the value of attribute \(attributeName) of <\(elementName)> is not quoted (unquoted values are not XML)", at: start)
            }
            let q = b[i]
            i += 1
            let valueStart = i
            // The tag's end was found outside quotes, so the closing quote comes before it.
            while i < limit, b[i] != q { i += 1 }
            guard i < limit else { throw fail("the value of attribute \(attributeName) of <\(elementName)> is not closed", at: start) }
            if let bad = memchr(b + valueStart, Int32(XMLBytes.lt), i - valueStart) {
                throw fail("a '<' in the value of attribute \(attributeName) of <\(elementName)>", at: bad.assumingMemoryBound(to: UInt8.self) - b)
            }
            let nameLength = attributeEnd - attributeStart
            for a in attributes where a.nameCount == nameLength && memcmp(b + a.name, b + attributeStart, nameLength) == 0 {
                throw fail("attribute \(attributeName) appears twice in <\(elementName)>", at: start)
            }
            attributes.append(Attribute(name: attributeStart, nameCount: nameLength, value: valueStart, valueCount: i - valueStart))
            i += 1
        }
        sawRoot = true
        if selfClosing {
            pendingEnd = true
        } else {
            guard open.count < Self.maxDepth else { throw fail("elements nested deeper than \(Self.maxDepth)", at: start) }
            open.append((string(nameStart, nameCount), tokenLine))
        }
    }

    private func checkName(_ from: Int, _ to: Int, what: String) throws(XMLTokenizerError) {
        let b = storage.bytes
        guard to > from else {
            throw fail("a tag without an \(what) name: \"\(excerpt(tokenOffset, tokenOffset + 12))\"", at: tokenOffset)
        }
        var ok = XMLBytes.isNameStart(b[from])
        var k = from + 1
        while ok, k < to { ok = XMLBytes.isNameChar(b[k]); k += 1 }
        guard ok else { throw fail("invalid \(what) name \"\(excerpt(from, to))\"", at: tokenOffset) }
    }

    private mutating func finish() throws(XMLTokenizerError) -> Token? {
        guard !finished else { return nil }
        tokenOffset = start
        tokenLine = lineAtStart
        if let top = open.last {
            throw fail("truncated: <\(top.name)> (opened at line \(top.line)) is not closed at the end of the file", at: end)
        }
        guard sawRoot else { throw fail(bytesRead == 0 ? "empty file: no XML root element" : "no XML root element", at: end) }
        finished = true
        return nil
    }

    // MARK: The current token

    /// The element's qualified name as written (`gpx:trkpt`), of a start or end tag.
    package var name: String { string(nameStart, nameCount) }

    /// Whether the element's name is `s`, without building a string.
    package func nameIs(_ s: StaticString) -> Bool {
        nameCount == s.utf8CodeUnitCount && memcmp(storage.bytes + nameStart, s.utf8Start, nameCount) == 0
    }

    /// Attributes of the current start tag.
    package var attributeCount: Int { attributes.count }

    /// Name of attribute `i`.
    package func attributeName(_ i: Int) -> String { string(attributes[i].name, attributes[i].nameCount) }

    /// Index of the attribute named `s`, or nil.
    package func attribute(_ s: StaticString) -> Int? {
        let n = s.utf8CodeUnitCount
        for (i, a) in attributes.enumerated() where a.nameCount == n && memcmp(storage.bytes + a.name, s.utf8Start, n) == 0 { return i }
        return nil
    }

    /// Attribute `i`'s value as written (entities not decoded): for numbers and fixed keywords.
    package func rawValue(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage.bytes + attributes[i].value, count: attributes[i].valueCount)
    }

    /// Whether attribute `i`'s raw value is `s`.
    package func valueIs(_ i: Int, _ s: StaticString) -> Bool {
        attributes[i].valueCount == s.utf8CodeUnitCount && memcmp(storage.bytes + attributes[i].value, s.utf8Start, s.utf8CodeUnitCount) == 0
    }

    /// At most 40 characters of attribute `i`'s raw value, for an error message.
    package func valueExcerpt(_ i: Int) -> String { excerpt(attributes[i].value, attributes[i].value + attributes[i].valueCount) }

    /// Attribute `i`'s value decoded: references replaced, literal tabs and line breaks as spaces.
    /// - Throws: an unknown entity, a bare `&` or a character XML forbids, with its line.
    package func attributeValue(_ i: Int) throws(XMLSyntaxError) -> String {
        let a = attributes[i]
        do {
            return try XMLBytes.decode(buffer, a.value, a.value + a.valueCount, attribute: true)
        } catch {
            throw XMLSyntaxError(line: tokenLine(at: error.offset), message: error.message)
        }
    }

    /// The current text decoded (references replaced, CR LF and CR as LF), or a CDATA section's
    /// content verbatim apart from line breaks.
    package func text() throws(XMLSyntaxError) -> String {
        if isCDATA {
            let b = storage.bytes
            guard memchr(b + textStart, Int32(XMLBytes.cr), textEnd - textStart) != nil else { return string(textStart, textEnd - textStart) }
            var out: [UInt8] = []
            out.reserveCapacity(textEnd - textStart)
            var k = textStart
            while k < textEnd {
                if b[k] == XMLBytes.cr {
                    out.append(XMLBytes.lf)
                    if k + 1 < textEnd, b[k + 1] == XMLBytes.lf { k += 1 }
                } else {
                    out.append(b[k])
                }
                k += 1
            }
            return String(decoding: out, as: UTF8.self)
        }
        do {
            return try XMLBytes.decode(buffer, textStart, textEnd, attribute: false)
        } catch {
            throw XMLSyntaxError(line: tokenLine(at: error.offset), message: error.message)
        }
    }
}
