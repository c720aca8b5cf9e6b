import SkateCore

/// Reads OpenStreetMap files into an `OSMHandler`, streaming: PBF (`.pbf`, `.osm.pbf`),
/// OSM XML (`.osm`, `.xml`) and bzip2- or gzip-compressed OSM XML (`.osm.bz2`, `.osm.gz`).
public enum OSMReader {
    /// The encodings this reader understands.
    public enum Format: String, Sendable {
        case pbf, xml, xmlBzip2 = "xml.bz2", xmlGzip = "xml.gz"
    }

    /// Reads the file at `path` into `handler`: header first, then nodes, ways, relations in file order.
    ///
    /// The format is told from the file's first bytes (PBF's `OSMHeader` block, bzip2's `BZh`, XML's
    /// `<`), falling back to the extension.
    /// - Throws: `ImportError` naming the file and the problem: missing or empty file, truncated or
    ///   garbage PBF, malformed XML, corrupt bzip2, or an unknown format.
    /// - Parameter progress: called as the file is read with (bytes read, file size in bytes).
    public static func read<H: OSMHandler>(path: String, into handler: inout H, progress: ((Int, Int) -> Void)? = nil) throws {
        let format = try detectFormat(path: path)
        let file = try InputFile(path: path)
        if let progress, let size = file.size { file.onRead = { progress($0, size) } }
        switch format {
        case .pbf:
            try PBFReader.read(file: file, into: &handler)
        case .xml:
            var reader = try OSMXMLReader(source: FileByteSource(file: file), path: path)
            try reader.run(into: &handler)
        case .xmlBzip2:
            var reader = try OSMXMLReader(source: try Bzip2ByteSource(file: file), path: path)
            try reader.run(into: &handler)
        case .xmlGzip:
            var reader = try OSMXMLReader(source: try GzipByteSource(file: file), path: path)
            try reader.run(into: &handler)
        }
    }

    /// The format of the file at `path`, from its first bytes or else its extension.
    /// - Throws: `ImportError` for a missing or empty file or one in no known format.
    public static func detectFormat(path: String) throws -> Format {
        let file = try InputFile(path: path)
        let head = ByteBuffer(capacity: 32)
        let n = try file.read(into: head.base, count: head.capacity)
        guard n > 0 else { throw ImportError(path: path, problem: "empty file") }
        let bytes = Array(UnsafeBufferPointer(start: head.bytes, count: n))[...]
        if bytes.starts(with: Array("BZh".utf8)) { return .xmlBzip2 }
        if bytes.starts(with: [0x1F, 0x8B]) { return .xmlGzip }
        // PBF: a 4-byte length, then a BlobHeader whose field 1 is the string "OSMHeader".
        if n >= 15, bytes[bytes.startIndex + 4] == 0x0A, bytes[bytes.startIndex + 5] == 9,
           Array(bytes[(bytes.startIndex + 6)..<(bytes.startIndex + 15)]) == Array("OSMHeader".utf8) {
            return .pbf
        }
        var text = bytes.drop(while: { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF })  // UTF-8 byte-order mark
        text = text.drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 })
        if text.first == UInt8(ascii: "<") { return .xml }

        let lower = path.lowercased()
        if lower.hasSuffix(".pbf") { return .pbf }
        if lower.hasSuffix(".bz2") { return .xmlBzip2 }
        if lower.hasSuffix(".gz") { return .xmlGzip }
        if lower.hasSuffix(".osm") || lower.hasSuffix(".xml") { return .xml }
        throw ImportError(path: path, problem: "unknown format: not OSM PBF, OSM XML, bzip2 or gzip (expected .osm.pbf, .osm, .osm.bz2 or .osm.gz)")
    }

    /// Counts the elements in an OSM file (a quick check and a read benchmark).
    /// - Throws: `ImportError` as `read(path:into:)`.
    public static func countElements(path: String) throws -> (nodes: Int, ways: Int, relations: Int) {
        var counter = OSMElementCounter()
        try read(path: path, into: &counter)
        return (counter.nodes, counter.ways, counter.relations)
    }
}

/// An `OSMHandler` that only counts what it is given.
public struct OSMElementCounter: OSMHandler {
    public var nodes = 0, ways = 0, relations = 0
    /// Tags seen on all elements, and node references in all ways.
    public var tags = 0, wayRefs = 0
    public var bbox: BoundingBox?
    public var timestamp: String?

    public init() {}

    public mutating func header(bbox: BoundingBox?, timestamp: String?) {
        self.bbox = bbox
        self.timestamp = timestamp
    }

    public mutating func node(id: Int64, lat: Double, lon: Double, tags: OSMTags) {
        nodes += 1
        self.tags += tags.pairs.count
    }

    public mutating func way(id: Int64, refs: [Int64], tags: OSMTags) {
        ways += 1
        wayRefs += refs.count
        self.tags += tags.pairs.count
    }

    public mutating func relation(id: Int64, members: [OSMMember], tags: OSMTags) {
        relations += 1
        self.tags += tags.pairs.count
    }
}
