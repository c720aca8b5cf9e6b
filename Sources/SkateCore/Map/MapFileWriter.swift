import FoundationEssentials
import Glibc
import SystemPackage

/// Where `MapFormat` lays a map's bytes down: appended in file order, read back (to share a
/// section's bytes with an equal earlier one) and patched (the directory and header, once the
/// offsets and the digest are known). In memory for `encode`, straight into the file for `write`,
/// so writing a map holds one section at a time, not the whole file several times over (issue 31:
/// a region's import peaked at ~4 copies of its map).
protocol MapByteSink {
    /// Bytes laid down so far.
    var count: Int { get }
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws
    /// Copies `into.count` bytes at `offset` (all inside what was appended) into `into`.
    func read(at offset: Int, into: UnsafeMutableRawBufferPointer) throws
    mutating func overwrite(at offset: Int, _ bytes: [UInt8]) throws
}

/// The map's bytes in an array (`MapFormat.encode`).
struct MemoryMapSink: MapByteSink {
    var bytes: [UInt8] = []
    var count: Int { bytes.count }
    mutating func append(_ b: UnsafeRawBufferPointer) { bytes.append(contentsOf: b) }
    func read(at offset: Int, into: UnsafeMutableRawBufferPointer) {
        bytes.withUnsafeBytes { into.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + into.count)])) }
    }
    mutating func overwrite(at offset: Int, _ b: [UInt8]) { bytes.replaceSubrange(offset..<(offset + b.count), with: b) }
}

/// The map's bytes in an open file (`MapFormat.write`'s temporary file).
struct FileMapSink: MapByteSink {
    let fd: Int32
    /// The map's path and the temporary file's name, for error lines.
    let path: String, tmpName: String
    private(set) var count = 0

    init(fd: Int32, path: String, tmpName: String) { self.fd = fd; self.path = path; self.tmpName = tmpName }

    mutating func append(_ b: UnsafeRawBufferPointer) throws {
        try put(b, at: count)
        count += b.count
    }

    func read(at offset: Int, into: UnsafeMutableRawBufferPointer) throws {
        let reason: String
        do {
            if try FileDescriptor(rawValue: fd).readFully(fromAbsoluteOffset: Int64(offset), into: into) == into.count { return }
            reason = "the file ends early"
        } catch {
            reason = RawFile.reason(error)
        }
        throw MapFileError.writeFailed(path: path, reason: "cannot read back the map being written: \(reason)")
    }

    mutating func overwrite(at offset: Int, _ b: [UInt8]) throws {
        try b.withUnsafeBytes { try put($0, at: offset) }
    }

    /// Writes all of `b` at `offset` (positioned writes; short writes and EINTR retried).
    private func put(_ b: UnsafeRawBufferPointer, at offset: Int) throws {
        do {
            try FileDescriptor(rawValue: fd).writeAll(toAbsoluteOffset: Int64(offset), b)
        } catch {
            throw MapFileError.writeFailed(path: path, reason: "cannot write \(tmpName): \(RawFile.reason(error)); the old file was left as it was")
        }
    }
}

extension MapFormat {
    /// Bytes of a section compared in memory before reading an earlier section back to share it.
    static let sharePrefixBytes = 64

    /// Lays a map into `sink` (which must be empty): the header and directory as placeholders,
    /// then every section of `MapSection.all` (a section whose bytes equal the start of one
    /// already laid down points at those bytes instead), then the real directory. The header's
    /// digest is left for the caller (`header(sections:payloadLength:digest:)`), which can hash
    /// the payload where it lies.
    /// - Returns: the number of sections.
    static func lay<Sink: MapByteSink>(_ map: SkateMap, landmarks: LandmarkLayout, progress: (@Sendable (Double) -> Void)?,
                                       into sink: inout Sink) throws -> Int {
        var map = map
        // Via points as Int16 offsets from their edge's start node whenever they all fit (half
        // the bytes of Int32 degrees); otherwise as they are.
        if map.viaOffsetLat.isEmpty, !map.viaLat.isEmpty, let o = map.viaOffsets() {
            map.viaOffsetLat = FlatArray(o.lat); map.viaOffsetLon = FlatArray(o.lon)
            map.viaLat = []; map.viaLon = []
        }
        let d = MapDerived(map: map, landmarks: landmarks, progress: progress)
        let table = MapSection.all
        let dirSize = table.count * directoryEntrySize
        let bodyStart = align8(headerSize + dirSize)
        try [UInt8](repeating: 0, count: bodyStart).withUnsafeBytes { try sink.append($0) }
        var dir: [UInt8] = []
        dir.reserveCapacity(dirSize)
        var written: [(offset: Int, count: Int, prefix: [UInt8])] = []
        var scratch: [UInt8] = []
        for s in table {
            let (elem, bytes) = s.bytes(map, d)
            let prefix = Array(bytes.prefix(sharePrefixBytes))
            var shared: Int?
            if !bytes.isEmpty {
                for w in written where w.count >= bytes.count && w.offset % 8 == 0 && w.prefix.starts(with: prefix) {
                    if bytes.count > prefix.count {
                        scratch = [UInt8](repeating: 0, count: bytes.count)
                        try scratch.withUnsafeMutableBytes { try sink.read(at: w.offset, into: $0) }
                        guard scratch == bytes else { continue }
                    }
                    shared = w.offset
                    break
                }
            }
            let offset = shared ?? sink.count
            dir.appendLE(s.id); dir.appendLE(UInt32(elem)); dir.appendLE(UInt64(offset)); dir.appendLE(UInt64(bytes.count))
            guard shared == nil else { continue }
            try bytes.withUnsafeBytes { try sink.append($0) }
            let pad = align8(sink.count) - sink.count
            if pad > 0 { try [UInt8](repeating: 0, count: pad).withUnsafeBytes { try sink.append($0) } }
            if !bytes.isEmpty { written.append((offset, bytes.count, prefix)) }
        }
        try sink.overwrite(at: headerSize, dir)
        return table.count
    }

    /// The 32-byte header of a file of `sections` sections whose payload (everything after the
    /// header) is `payloadLength` bytes with XXH64 `digest`.
    static func header(sections: Int, payloadLength: Int, digest: UInt64) -> [UInt8] {
        var out = magic
        out.appendLE(version); out.appendLE(UInt32(sections)); out.appendLE(UInt64(payloadLength))
        out.appendLE(digest)
        return out
    }
}
