import Foundation

/// Tiny hostile input files for the fuzz-regression tests, written by the test itself (nothing
/// is copied from anywhere): each reproduces one finding of the fuzzing in issue 15.
public enum FuzzFiles {
    /// A fresh folder for one test's files (remove it when done).
    public static func folder(_ label: String) -> URL { TestData.temporaryDirectory("fuzz-" + label) }

    /// Writes `bytes` as `name` in `dir`; returns the path.
    @discardableResult
    public static func write(_ bytes: [UInt8], _ name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Writes UTF-8 `text` as `name` in `dir`; returns the path.
    @discardableResult
    public static func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        try write(Array(text.utf8), name, in: dir)
    }

    /// A FIFO with no writer in `dir` (opening it for reading would block forever).
    public static func fifo(_ name: String, in dir: URL) -> String? {
        let path = dir.appendingPathComponent(name).path
        return mkfifo(path, 0o600) == 0 ? path : nil
    }

    // MARK: PBF

    /// Protobuf varint bytes.
    public static func varint(_ v: UInt64) -> [UInt8] {
        var x = v, out: [UInt8] = []
        while x >= 0x80 { out.append(UInt8(x & 0x7F) | 0x80); x >>= 7 }
        out.append(UInt8(x))
        return out
    }

    static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
    static func field(_ number: Int, _ payload: [UInt8]) -> [UInt8] { varint(UInt64(number << 3 | 2)) + varint(UInt64(payload.count)) + payload }
    static func packedDeltas(_ values: [Int64]) -> [UInt8] {
        var out: [UInt8] = [], last: Int64 = 0
        for v in values { out += varint(zigzag(v - last)); last = v }
        return out
    }

    /// One raw (uncompressed) file block of the given type.
    static func block(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let blob = field(1, payload)
        let header = field(1, Array(type.utf8)) + varint(3 << 3) + varint(UInt64(blob.count))
        let n = header.count
        return [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + header + blob
    }

    /// A PBF holding one DenseNodes group of Monaco nodes (lat/lon in 100-nanodegree units), and
    /// the byte range of the packed latitudes inside the file so a test can corrupt them.
    /// `spareLatitudes` extra latitudes beyond the ids (ignored by readers) keep the counts equal
    /// once corrupted varints merge, so only the coordinates' values can give the damage away.
    public static func densePBF(count: Int = 4, spareLatitudes: Int = 0) -> (bytes: [UInt8], latitudes: Range<Int>) {
        let header = block("OSMHeader", field(4, Array("OsmSchema-V0.6".utf8)) + field(4, Array("DenseNodes".utf8)))
        let ids = (0..<count).map { Int64(1000 + $0) }
        let lats = (0..<(count + spareLatitudes)).map { Int64(437_300_000 + 1_000 * $0) }   // 43.73° N
        let lons = (0..<count).map { Int64(74_200_000 + 1_000 * $0) }    // 7.42° E
        let packedLats = packedDeltas(lats)
        let dense = field(1, packedDeltas(ids)) + field(8, packedLats) + field(9, packedDeltas(lons))
        let group = field(2, dense)
        let primitive = field(1, field(1, [])) + field(2, group)   // string table with "", one group
        let data = block("OSMData", primitive)
        // The packed latitudes are the only copy of these bytes after the ids field.
        let file = header + data
        let start = indexOf(packedLats, in: file, after: header.count)!
        return (file, start..<(start + packedLats.count))
    }

    static func indexOf(_ needle: [UInt8], in hay: [UInt8], after: Int) -> Int? {
        guard needle.count <= hay.count else { return nil }
        for i in after...(hay.count - needle.count) where Array(hay[i..<(i + needle.count)]) == needle { return i }
        return nil
    }

    /// The issue's reproducer: a valid dense-node PBF whose packed latitudes have two
    /// continuation bits flipped on, so varints merge into values far off the globe.
    public static func pbfWithFlippedLatitudeBits() -> [UInt8] {
        var (bytes, lats) = densePBF(count: 4, spareLatitudes: 2)
        // The last byte of the first and of the third latitude varint: each then runs into the next.
        var ends: [Int] = []
        for i in lats where bytes[i] & 0x80 == 0 { ends.append(i) }
        bytes[ends[0]] |= 0x80
        bytes[ends[2]] |= 0x80
        return bytes
    }

    // MARK: Text formats

    /// OSM XML whose node's lat attribute sets the terminal title and carries NUL, CR and LF.
    public static let hostileOSMXML = "<?xml version='1.0'?>\n<osm version='0.6'>\n<node id='1' lat='\u{1B}]0;pwned\u{07}\u{00}\r\nx' lon='7.4'/>\n</osm>\n"

    /// A GPX with a plan's shape: a `rte` of a few far-apart points and a `trk` of the geometry.
    /// The route points are `routeOffset` degrees away from the track, so a reader joining both
    /// would report a much longer trace.
    public static func gpxWithRouteAndTrack(trackPoints: Int = 20, routeOffset: Double = 0.01, timed: Bool = true) -> String {
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n<rte><name>plan</name>\n"
        for i in 0..<4 { s += "<rtept lat=\"\(43.73 + routeOffset + Double(i) * 0.001)\" lon=\"\(7.42 + routeOffset)\"><name>step \(i)</name></rtept>\n" }
        s += "</rte>\n<trk><name>geometry</name><trkseg>\n"
        for i in 0..<trackPoints {
            let t = timed ? "<time>2026-11-20T10:00:\(String(format: "%02d", i))Z</time>" : ""
            s += "<trkpt lat=\"\(43.73 + Double(i) * 0.00002)\" lon=\"7.42\">\(t)</trkpt>\n"
        }
        return s + "</trkseg></trk>\n</gpx>\n"
    }
}

extension FuzzFiles {
    /// A sparse regular file of `bytes` zero bytes (no disk used): the "huge regular file" a reader
    /// must refuse in one line rather than read into memory. Returns the path.
    @discardableResult
    public static func huge(_ name: String, bytes: UInt64 = 20 << 30, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        FileManager.default.createFile(atPath: path, contents: nil)
        let h = try FileHandle(forWritingAtPath: path).unwrap(path)
        try h.truncate(atOffset: bytes)
        try h.close()
        return path
    }
}

extension Optional {
    func unwrap(_ what: String) throws -> Wrapped {
        guard let v = self else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: what]) }
        return v
    }
}
