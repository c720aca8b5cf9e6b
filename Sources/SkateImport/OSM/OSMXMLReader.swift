#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SkateCore

/// Streams OSM XML (`<osm>`, `<bounds>`, `<node>`, `<way><nd/>`, `<relation><member/>`, `<tag/>`)
/// from any `ByteSource` into an `OSMHandler`.
///
/// Hand-written rather than Foundation's `XMLParser` because: `XMLParser(data:)` refuses documents
/// over 10 MB (Monaco's is 10.1 MB); its callbacks hand every element's attributes over as a fresh
/// `[String: String]` (~1.4 M callbacks/s here), so a city spends most of its time building
/// dictionaries we then pick three numbers out of; and OSM XML is a tiny regular subset of XML
/// (elements with quoted attributes, no text content, no DTD entities). This tokenizer scans a
/// sliding buffer with `memchr`, parses numbers straight from bytes, holds memory bounded by one
/// buffer whatever the document's size, and names the line of any error. It checks nesting and
/// truncation but is not a validating parser: DTDs, CDATA and text content are skipped.
struct OSMXMLReader<Source: ByteSource> {
    /// Bytes pulled from the source per refill.
    static var chunkSize: Int { 1 << 20 }
    /// Longest single piece of markup accepted; anything longer is garbage, not OSM.
    static var maxMarkupLength: Int { 16 << 20 }

    private var source: Source
    private let path: String
    private let buffer = ByteBuffer(capacity: 2 << 20)
    /// First unconsumed byte and end of valid bytes in `buffer`.
    private var start = 0, end = 0
    private var sourceEnded = false
    /// Line number of `buffer[0]`, for error messages.
    private var lineAtBufferStart = 1

    private struct Attribute { var name: Int; var nameLength: Int; var value: Int; var valueLength: Int }
    private var attributes: [Attribute] = []

    private enum Element { case none, node, way, relation }
    private var current = Element.none
    private var currentId: Int64 = 0
    private var currentLat = 0.0, currentLon = 0.0
    private var tags: [(key: String, value: String)] = []
    private var refs: [Int64] = []
    private var members: [OSMMember] = []

    /// Names of the open elements, innermost last.
    private var open: [String] = []
    private var sawRoot = false
    private var headerSent = false
    private var bbox: BoundingBox?
    private var timestamp: String?

    init(source: Source, path: String) {
        self.source = source
        self.path = path
        attributes.reserveCapacity(16)
    }

    // MARK: Buffer

    private var bytes: UnsafeMutablePointer<UInt8> { buffer.bytes }

    /// Moves unconsumed bytes to the front and reads more; grows the buffer for long markup.
    private mutating func refill() throws(ImportError) {
        if start > 0 {
            var p = bytes, n = start
            while n > 0, let nl = memchr(p, 0x0A, n) {
                lineAtBufferStart += 1
                let skip = nl.assumingMemoryBound(to: UInt8.self) - p + 1
                p += skip
                n -= skip
            }
            let keep = end - start
            if keep > 0 { memmove(bytes, bytes + start, keep) }
            start = 0
            end = keep
        }
        if buffer.capacity - end < Self.chunkSize {
            guard end < Self.maxMarkupLength else { throw fail("markup longer than \(Self.maxMarkupLength >> 20) MB: not OSM XML", at: start) }
            buffer.grow(to: buffer.capacity * 2, keeping: end)
        }
        let n = try source.read(into: bytes + end, count: buffer.capacity - end)
        if n == 0 { sourceEnded = true }
        end += n
    }

    private func line(at index: Int) -> Int {
        var count = lineAtBufferStart
        var i = 0
        let b = bytes
        while i < min(index, end) { if b[i] == 0x0A { count += 1 }; i += 1 }
        return count
    }

    private func fail(_ problem: String, at index: Int) -> ImportError {
        // The problem quotes the input: through the one terminal sanitizer, so a value such as
        // lat="ESC]0;pwnedBEL" cannot set the terminal's title when the error is printed.
        ImportError(path: path, problem: TerminalSafe.clean("bad OSM XML at line \(line(at: index)): \(problem)"))
    }

    // MARK: Tokenizer

    mutating func run<H: OSMHandler>(into handler: inout H) throws(ImportError) {
        while true {
            let b = bytes
            guard start < end, let lt = memchr(b + start, Int32(UInt8(ascii: "<")), end - start) else {
                start = end
                if sourceEnded { break }
                try refill()
                continue
            }
            start = lt.assumingMemoryBound(to: UInt8.self) - b
            guard let after = markupEnd(from: start) else {
                if sourceEnded { throw fail("truncated: the file ends inside markup", at: start) }
                try refill()
                continue
            }
            try markup(from: start, to: after, &handler)
            start = after
        }
        if let innermost = open.last {
            throw ImportError(path: path, problem: "bad OSM XML: truncated, <\(innermost)> is not closed at the end of the file")
        }
        guard sawRoot else { throw ImportError(path: path, problem: "not OSM XML: no <osm> element") }
        sendHeader(&handler)
    }

    /// Index just past the markup starting at `i` (a `<`), or nil if the buffer ends first.
    private func markupEnd(from i: Int) -> Int? {
        let b = bytes
        func find(_ terminator: StaticString, from k: Int) -> Int? {
            let t = terminator.utf8Start, n = terminator.utf8CodeUnitCount
            var j = k
            while j + n <= end {
                if b[j] == t[0], memcmp(b + j, t, n) == 0 { return j + n }
                j += 1
            }
            return nil
        }
        guard i + 1 < end else { return nil }
        switch b[i + 1] {
        case UInt8(ascii: "?"):
            return find("?>", from: i + 2)
        case UInt8(ascii: "!"):
            guard i + 3 < end else { return nil }
            if b[i + 2] == UInt8(ascii: "-"), b[i + 3] == UInt8(ascii: "-") { return find("-->", from: i + 4) }
            if b[i + 2] == UInt8(ascii: "[") { return find("]]>", from: i + 3) }  // CDATA
            // <!DOCTYPE …>, possibly with an internal subset in brackets.
            var depth = 0, j = i + 2
            while j < end {
                switch b[j] {
                case UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "]"): depth -= 1
                case UInt8(ascii: ">") where depth <= 0: return j + 1
                default: break
                }
                j += 1
            }
            return nil
        default:
            // An element tag: `>` ends it unless inside a quoted attribute value.
            var quote: UInt8 = 0
            var j = i + 1
            while j < end {
                let c = b[j]
                if quote != 0 {
                    if c == quote { quote = 0 }
                } else if c == UInt8(ascii: ">") {
                    return j + 1
                } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    quote = c
                }
                j += 1
            }
            return nil
        }
    }

    @inline(__always)
    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }

    @inline(__always)
    private static func isNameEnd(_ c: UInt8) -> Bool { isSpace(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: ">") || c == UInt8(ascii: "=") }

    @inline(__always)
    private func nameIs(_ p: Int, _ n: Int, _ s: StaticString) -> Bool {
        n == s.utf8CodeUnitCount && memcmp(bytes + p, s.utf8Start, n) == 0
    }

    private func text(_ p: Int, _ n: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes + p, count: n), as: UTF8.self)
    }

    /// One piece of markup `[i, after)`.
    private mutating func markup<H: OSMHandler>(from i: Int, to after: Int, _ handler: inout H) throws(ImportError) {
        let b = bytes
        let first = b[i + 1]
        if first == UInt8(ascii: "?") || first == UInt8(ascii: "!") { return }  // declarations, comments, DOCTYPE, CDATA
        if first == UInt8(ascii: "/") {
            var j = i + 2
            while j < after - 1, !Self.isNameEnd(b[j]) { j += 1 }
            try endElement(nameAt: i + 2, length: j - i - 2, at: i, &handler)
            return
        }
        var j = i + 1
        while j < after - 1, !Self.isNameEnd(b[j]) { j += 1 }
        let nameStart = i + 1, nameLength = j - nameStart
        guard nameLength > 0 else { throw fail("a tag without a name", at: i) }
        let selfClosing = b[after - 2] == UInt8(ascii: "/")
        try parseAttributes(from: j, to: selfClosing ? after - 2 : after - 1, at: i)
        try startElement(nameAt: nameStart, length: nameLength, at: i, &handler)
        if selfClosing {
            try endElement(nameAt: nameStart, length: nameLength, at: i, &handler, pushed: false)
        } else {
            open.append(text(nameStart, nameLength))
        }
    }

    private mutating func parseAttributes(from k: Int, to limit: Int, at tagStart: Int) throws(ImportError) {
        attributes.removeAll(keepingCapacity: true)
        let b = bytes
        var j = k
        while true {
            while j < limit, Self.isSpace(b[j]) { j += 1 }
            if j >= limit { return }
            let name = j
            while j < limit, !Self.isNameEnd(b[j]) { j += 1 }
            let nameLength = j - name
            while j < limit, Self.isSpace(b[j]) { j += 1 }
            guard nameLength > 0, j < limit, b[j] == UInt8(ascii: "=") else {
                throw fail("malformed attribute in \"\(text(tagStart, min(60, limit - tagStart)))\"", at: tagStart)
            }
            j += 1
            while j < limit, Self.isSpace(b[j]) { j += 1 }
            guard j < limit, b[j] == UInt8(ascii: "\"") || b[j] == UInt8(ascii: "'") else {
                throw fail("unquoted attribute value in \"\(text(tagStart, min(60, limit - tagStart)))\"", at: tagStart)
            }
            let quote = b[j]
            j += 1
            let value = j
            while j < limit, b[j] != quote { j += 1 }
            guard j < limit else { throw fail("unterminated attribute value", at: tagStart) }
            attributes.append(Attribute(name: name, nameLength: nameLength, value: value, valueLength: j - value))
            j += 1
        }
    }

    @inline(__always)
    private func attribute(_ s: StaticString) -> Attribute? {
        for a in attributes where nameIs(a.name, a.nameLength, s) { return a }
        return nil
    }

    private func string(_ a: Attribute, at tagStart: Int) throws(ImportError) -> String {
        do {
            return try XMLText.string(bytes + a.value, a.valueLength)
        } catch {
            throw fail(error.message, at: tagStart)
        }
    }

    private func requiredInt(_ s: StaticString, in element: String, at tagStart: Int) throws(ImportError) -> Int64 {
        guard let a = attribute(s) else { throw fail("<\(element)> without \(s)", at: tagStart) }
        guard let v = XMLText.int64(bytes + a.value, a.valueLength) else {
            throw fail("<\(element)> has \(s)=\"\(text(a.value, min(a.valueLength, 40)))\", not an integer", at: tagStart)
        }
        return v
    }

    private func optionalDouble(_ s: StaticString, in element: String, at tagStart: Int) throws(ImportError) -> Double? {
        guard let a = attribute(s) else { return nil }
        guard let v = XMLText.double(bytes + a.value, a.valueLength), v.isFinite else {
            throw fail("<\(element)> has \(s)=\"\(text(a.value, min(a.valueLength, 40)))\", not a number", at: tagStart)
        }
        return v
    }

    // MARK: OSM elements

    private mutating func sendHeader<H: OSMHandler>(_ handler: inout H) {
        guard !headerSent else { return }
        headerSent = true
        handler.header(bbox: bbox, timestamp: timestamp)
    }

    private mutating func beginElement<H: OSMHandler>(_ kind: Element, _ name: String, at tagStart: Int, _ handler: inout H) throws(ImportError) {
        guard current == .none else { throw fail("<\(name)> inside another element", at: tagStart) }
        sendHeader(&handler)
        current = kind
        currentId = try requiredInt("id", in: name, at: tagStart)
    }

    private mutating func startElement<H: OSMHandler>(nameAt p: Int, length n: Int, at tagStart: Int, _ handler: inout H) throws(ImportError) {
        if !sawRoot {
            guard nameIs(p, n, "osm") else { throw fail("not OSM XML: the root element is <\(text(p, min(n, 40)))>, expected <osm>", at: tagStart) }
            sawRoot = true
            if let a = attribute("timestamp") ?? attribute("osmosis_replication_timestamp") {
                timestamp = try string(a, at: tagStart)
            }
            return
        }
        if nameIs(p, n, "tag") {
            guard current != .none, let k = attribute("k") else { return }
            let v = attribute("v")
            tags.append((try string(k, at: tagStart), try v.map { (a) throws(ImportError) -> String in try string(a, at: tagStart) } ?? ""))
        } else if nameIs(p, n, "nd") {
            guard current == .way else { return }
            refs.append(try requiredInt("ref", in: "nd", at: tagStart))
        } else if nameIs(p, n, "node") {
            try beginElement(.node, "node", at: tagStart, &handler)
            let lat = try optionalDouble("lat", in: "node", at: tagStart)
            let lon = try optionalDouble("lon", in: "node", at: tagStart)
            guard let lat, let lon else {
                // Deleted nodes in history files carry no position; skip them.
                if let v = attribute("visible"), nameIs(v.value, v.valueLength, "false") { current = .none; return }
                throw fail("<node id=\"\(currentId)\"> without lat and lon", at: tagStart)
            }
            guard abs(lat) <= 90, abs(lon) <= 180 else { throw fail("<node id=\"\(currentId)\"> position \(lat),\(lon) is out of range", at: tagStart) }
            currentLat = lat
            currentLon = lon
        } else if nameIs(p, n, "way") {
            try beginElement(.way, "way", at: tagStart, &handler)
        } else if nameIs(p, n, "relation") {
            try beginElement(.relation, "relation", at: tagStart, &handler)
        } else if nameIs(p, n, "member") {
            guard current == .relation else { return }
            let ref = try requiredInt("ref", in: "member", at: tagStart)
            guard let t = attribute("type") else { throw fail("<member ref=\"\(ref)\"> without type", at: tagStart) }
            let kind: OSMMember.Kind
            if nameIs(t.value, t.valueLength, "node") { kind = .node }
            else if nameIs(t.value, t.valueLength, "way") { kind = .way }
            else if nameIs(t.value, t.valueLength, "relation") { kind = .relation }
            else { throw fail("<member> of unknown type \"\(text(t.value, min(t.valueLength, 40)))\"", at: tagStart) }
            let role = try attribute("role").map { (a) throws(ImportError) -> String in try string(a, at: tagStart) } ?? ""
            members.append(OSMMember(kind: kind, ref: ref, role: role))
        } else if nameIs(p, n, "bounds") {
            let minLat = try optionalDouble("minlat", in: "bounds", at: tagStart)
            let minLon = try optionalDouble("minlon", in: "bounds", at: tagStart)
            let maxLat = try optionalDouble("maxlat", in: "bounds", at: tagStart)
            let maxLon = try optionalDouble("maxlon", in: "bounds", at: tagStart)
            if let minLat, let minLon, let maxLat, let maxLon {
                bbox = BoundingBox(minLon: minLon, minLat: minLat, maxLon: maxLon, maxLat: maxLat)
            }
        } else if nameIs(p, n, "bound") {
            // Osmosis' older form: box="minlat,minlon,maxlat,maxlon".
            if let a = attribute("box") {
                let parts = try string(a, at: tagStart).split(separator: ",").compactMap { Double($0) }
                if parts.count == 4 { bbox = BoundingBox(minLon: parts[1], minLat: parts[0], maxLon: parts[3], maxLat: parts[2]) }
            }
        } else if nameIs(p, n, "meta") {
            // Overpass API: <meta osm_base="2024-…"/>.
            if timestamp == nil, let a = attribute("osm_base") { timestamp = try string(a, at: tagStart) }
        }
        // Anything else (changesets, notes, unknown extensions) is ignored.
    }

    private mutating func endElement<H: OSMHandler>(nameAt p: Int, length n: Int, at tagStart: Int, _ handler: inout H, pushed: Bool = true) throws(ImportError) {
        if pushed {
            guard let top = open.popLast() else { throw fail("</\(text(p, min(n, 40)))> closes nothing", at: tagStart) }
            let name = text(p, n)
            guard name == top else { throw fail("</\(name.prefix(40))> closes <\(top)>", at: tagStart) }
        }
        let kind: Element
        if nameIs(p, n, "node") { kind = .node } else if nameIs(p, n, "way") { kind = .way } else if nameIs(p, n, "relation") { kind = .relation } else { return }
        guard kind == current else { return }
        let elementTags = tags.isEmpty ? OSMTags() : OSMTags(tags)
        tags = []
        switch kind {
        case .node:
            handler.node(id: currentId, lat: currentLat, lon: currentLon, tags: elementTags)
        case .way:
            handler.way(id: currentId, refs: refs, tags: elementTags)
            refs = []
        case .relation:
            handler.relation(id: currentId, members: members, tags: elementTags)
            members = []
        case .none:
            break
        }
        current = .none
    }
}
