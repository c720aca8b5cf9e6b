#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SkateCore

/// A `ByteSource` as input for the shared XML tokenizer.
struct XMLSourceInput<Source: ByteSource>: XMLByteInput {
    var source: Source
    mutating func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        try source.read(into: buffer, count: count)
    }
}

/// Streams OSM XML (`<osm>`, `<bounds>`, `<node>`, `<way><nd/>`, `<relation><member/>`, `<tag/>`)
/// from any `ByteSource` into an `OSMHandler`.
///
/// The XML itself is SkateCore's `XMLTokenizer` (the one the GPX reader uses too): it streams
/// through a bounded window, checks well-formedness and names the line of any error; this type
/// only knows OSM. Numbers are parsed straight from the attribute bytes (`XMLText`), and only
/// the values kept (tag keys and values, roles, timestamps) are decoded into strings.
struct OSMXMLReader<Source: ByteSource> {
    private var tokenizer: XMLTokenizer
    private let path: String

    private enum Element { case none, node, way, relation }
    private var current = Element.none
    private var currentId: Int64 = 0
    private var currentLat = 0.0, currentLon = 0.0
    private var tags: [(key: String, value: String)] = []
    private var refs: [Int64] = []
    private var members: [OSMMember] = []

    private var sawRoot = false
    private var headerSent = false
    private var bbox: BoundingBox?
    private var timestamp: String?

    /// Reads the document's first bytes and checks its encoding.
    init(source: Source, path: String) throws(ImportError) {
        self.path = path
        do {
            tokenizer = try XMLTokenizer(input: XMLSourceInput(source: source))
        } catch {
            switch error {
            case .input(let e as ImportError): throw e
            case .input(let e): throw ImportError(path: path, problem: TerminalSafe.clean("read failed: \(e)"))
            case .syntax(let e): throw ImportError(path: path, problem: TerminalSafe.clean("bad OSM XML at line \(e.line): \(e.message)"))
            }
        }
    }

    private func importError(_ problem: String) -> ImportError {
        // The problem quotes the input: through the one terminal sanitizer, so a value such as
        // lat="ESC]0;pwnedBEL" cannot set the terminal's title when the error is printed.
        ImportError(path: path, problem: TerminalSafe.clean(problem))
    }

    private func fail(_ problem: String) -> ImportError {
        importError("bad OSM XML at line \(tokenizer.tokenLine): \(problem)")
    }

    private func converted(_ error: XMLTokenizerError) -> ImportError {
        switch error {
        case .input(let e as ImportError): return e
        case .input(let e): return importError("read failed: \(e)")
        case .syntax(let e):
            if !sawRoot, e.message.contains("not an XML document") || e.message.contains("no XML root element") {
                return importError("not OSM XML: no <osm> element (line \(e.line): \(e.message))")
            }
            return importError("bad OSM XML at line \(e.line): \(e.message)")
        }
    }

    private func converted(_ error: XMLSyntaxError) -> ImportError {
        importError("bad OSM XML at line \(error.line): \(error.message)")
    }

    mutating func run<H: OSMHandler>(into handler: inout H) throws(ImportError) {
        while true {
            let token: XMLTokenizer.Token?
            do { token = try tokenizer.next() } catch { throw converted(error) }
            switch token {
            case nil:
                guard sawRoot else { throw importError("not OSM XML: no <osm> element") }
                sendHeader(&handler)
                return
            case .startElement:
                try startElement(&handler)
            case .endElement:
                endElement(&handler)
            case .text, .cdata:
                continue
            }
        }
    }

    // MARK: Attributes

    private func string(_ i: Int) throws(ImportError) -> String {
        do { return try tokenizer.attributeValue(i) } catch { throw converted(error) }
    }

    private func requiredInt(_ s: StaticString, in element: String) throws(ImportError) -> Int64 {
        guard let i = tokenizer.attribute(s) else { throw fail("<\(element)> without \(s)") }
        let raw = tokenizer.rawValue(i)
        guard let v = XMLText.int64(raw.baseAddress!, raw.count) else {
            throw fail("<\(element)> has \(s)=\"\(tokenizer.valueExcerpt(i))\", not an integer")
        }
        return v
    }

    private func optionalDouble(_ s: StaticString, in element: String) throws(ImportError) -> Double? {
        guard let i = tokenizer.attribute(s) else { return nil }
        let raw = tokenizer.rawValue(i)
        guard let v = XMLText.double(raw.baseAddress!, raw.count), v.isFinite else {
            throw fail("<\(element)> has \(s)=\"\(tokenizer.valueExcerpt(i))\", not a number")
        }
        return v
    }

    // MARK: OSM elements

    private mutating func sendHeader<H: OSMHandler>(_ handler: inout H) {
        guard !headerSent else { return }
        headerSent = true
        handler.header(bbox: bbox, timestamp: timestamp)
    }

    private mutating func beginElement<H: OSMHandler>(_ kind: Element, _ name: String, _ handler: inout H) throws(ImportError) {
        guard current == .none else { throw fail("<\(name)> inside another element") }
        sendHeader(&handler)
        current = kind
        currentId = try requiredInt("id", in: name)
    }

    private mutating func startElement<H: OSMHandler>(_ handler: inout H) throws(ImportError) {
        if !sawRoot {
            guard tokenizer.nameIs("osm") else { throw fail("not OSM XML: the root element is <\(tokenizer.name.prefix(40))>, expected <osm>") }
            sawRoot = true
            if let a = tokenizer.attribute("timestamp") ?? tokenizer.attribute("osmosis_replication_timestamp") {
                timestamp = try string(a)
            }
            return
        }
        if tokenizer.nameIs("tag") {
            guard current != .none, let k = tokenizer.attribute("k") else { return }
            let v = tokenizer.attribute("v")
            tags.append((try string(k), try v.map { (a) throws(ImportError) -> String in try string(a) } ?? ""))
        } else if tokenizer.nameIs("nd") {
            guard current == .way else { return }
            refs.append(try requiredInt("ref", in: "nd"))
        } else if tokenizer.nameIs("node") {
            try beginElement(.node, "node", &handler)
            let lat = try optionalDouble("lat", in: "node")
            let lon = try optionalDouble("lon", in: "node")
            guard let lat, let lon else {
                // Deleted nodes in history files carry no position; skip them.
                if let v = tokenizer.attribute("visible"), tokenizer.valueIs(v, "false") { current = .none; return }
                throw fail("<node id=\"\(currentId)\"> without lat and lon")
            }
            guard abs(lat) <= 90, abs(lon) <= 180 else { throw fail("<node id=\"\(currentId)\"> position \(lat),\(lon) is out of range") }
            currentLat = lat
            currentLon = lon
        } else if tokenizer.nameIs("way") {
            try beginElement(.way, "way", &handler)
        } else if tokenizer.nameIs("relation") {
            try beginElement(.relation, "relation", &handler)
        } else if tokenizer.nameIs("member") {
            guard current == .relation else { return }
            let ref = try requiredInt("ref", in: "member")
            guard let ty = tokenizer.attribute("type") else { throw fail("<member ref=\"\(ref)\"> without type") }
            let kind: OSMMember.Kind
            if tokenizer.valueIs(ty, "node") { kind = .node }
            else if tokenizer.valueIs(ty, "way") { kind = .way }
            else if tokenizer.valueIs(ty, "relation") { kind = .relation }
            else { throw fail("<member> of unknown type \"\(tokenizer.valueExcerpt(ty))\"") }
            let role = try tokenizer.attribute("role").map { (a) throws(ImportError) -> String in try string(a) } ?? ""
            members.append(OSMMember(kind: kind, ref: ref, role: role))
        } else if tokenizer.nameIs("bounds") {
            let minLat = try optionalDouble("minlat", in: "bounds")
            let minLon = try optionalDouble("minlon", in: "bounds")
            let maxLat = try optionalDouble("maxlat", in: "bounds")
            let maxLon = try optionalDouble("maxlon", in: "bounds")
            if let minLat, let minLon, let maxLat, let maxLon {
                bbox = BoundingBox(minLon: minLon, minLat: minLat, maxLon: maxLon, maxLat: maxLat)
            }
        } else if tokenizer.nameIs("bound") {
            // Osmosis' older form: box="minlat,minlon,maxlat,maxlon".
            if let a = tokenizer.attribute("box") {
                let parts = try string(a).split(separator: ",").compactMap { Double($0) }
                if parts.count == 4 { bbox = BoundingBox(minLon: parts[1], minLat: parts[0], maxLon: parts[3], maxLat: parts[2]) }
            }
        } else if tokenizer.nameIs("meta") {
            // Overpass API: <meta osm_base="2024-…"/>.
            if timestamp == nil, let a = tokenizer.attribute("osm_base") { timestamp = try string(a) }
        }
        // Anything else (changesets, notes, unknown extensions) is ignored.
    }

    private mutating func endElement<H: OSMHandler>(_ handler: inout H) {
        let kind: Element
        if tokenizer.nameIs("node") { kind = .node } else if tokenizer.nameIs("way") { kind = .way } else if tokenizer.nameIs("relation") { kind = .relation } else { return }
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
