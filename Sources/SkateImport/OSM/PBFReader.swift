import SkateCore

/// Streams an OSM PBF file (https://wiki.openstreetmap.org/wiki/PBF_Format) block by block:
/// each block is a 4-byte big-endian length, a `BlobHeader`, then a `Blob` holding a raw or
/// zlib-compressed `HeaderBlock` or `PrimitiveBlock`. Memory stays bounded by one block.
enum PBFReader {
    /// Spec limit on a BlobHeader's size (64 KiB); larger means garbage, not PBF.
    static let maxBlobHeaderSize = 64 * 1024
    /// Spec limit on a Blob, compressed or not (32 MiB); larger means garbage or a hostile file.
    static let maxBlobSize = 32 * 1024 * 1024
    /// Required features this reader understands; a file needing others is refused, not misread.
    static let supportedFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]

    static func read<H: OSMHandler>(file: InputFile, into handler: inout H) throws(ImportError) {
        let path = file.path
        let headerBuf = ByteBuffer(capacity: maxBlobHeaderSize)
        let blobBuf = ByteBuffer(capacity: 1 << 16)
        let rawBuf = ByteBuffer(capacity: 1 << 16)
        var decoder = PrimitiveBlockDecoder()
        var blockIndex = 0
        let fileSize = file.size

        /// Reads exactly `count` bytes or reports where the file ended.
        func readExactly(_ count: Int, into buffer: ByteBuffer, blockStart: Int, what: String) throws(ImportError) {
            let got = try file.read(into: buffer.base, count: count)
            if got < count {
                throw ImportError(path: path, problem: "truncated PBF: file ends at byte \(file.offset) inside the \(what) of the block at byte \(blockStart)")
            }
        }

        while true {
            let blockStart = file.offset
            let n = try file.read(into: headerBuf.base, count: 4)
            if n == 0 {
                if blockIndex == 0 { throw ImportError(path: path, problem: "empty file") }
                break
            }
            guard n == 4 else {
                throw ImportError(path: path, problem: "truncated PBF: file ends at byte \(file.offset) inside a block length")
            }
            let b = headerBuf.bytes
            let headerLength = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
            guard headerLength > 0, headerLength <= maxBlobHeaderSize else {
                throw ImportError(path: path, problem: "not an OSM PBF file: block header length \(headerLength) at byte \(blockStart) is out of range")
            }
            try readExactly(headerLength, into: headerBuf, blockStart: blockStart, what: "header")
            let (type, dataSize): (String, Int)
            do {
                (type, dataSize) = try parseBlobHeader(ProtoCursor(start: headerBuf.bytes, count: headerLength))
            } catch {
                throw ImportError(path: path, problem: "not an OSM PBF file: unreadable block header at byte \(blockStart) (\(error.message))")
            }
            if blockIndex == 0, type != "OSMHeader" {
                throw ImportError(path: path, problem: "not an OSM PBF file: first block is \"\(type.prefix(40))\", expected OSMHeader")
            }
            guard dataSize >= 0, dataSize <= maxBlobSize else {
                throw ImportError(path: path, problem: "corrupt PBF: block at byte \(blockStart) claims \(dataSize) bytes (limit \(maxBlobSize))")
            }
            // Never allocate more than the file still holds: a corrupt size fails here, not in malloc.
            if let total = fileSize, dataSize > total - file.offset {
                throw ImportError(path: path, problem: "truncated PBF: the block at byte \(blockStart) claims \(dataSize) bytes but the file has \(total - file.offset) left")
            }
            blobBuf.reserve(dataSize)
            try readExactly(dataSize, into: blobBuf, blockStart: blockStart, what: "data")
            blockIndex += 1
            guard type == "OSMHeader" || type == "OSMData" else { continue }  // the spec says skip unknown kinds

            let payload = try unpack(ProtoCursor(start: blobBuf.bytes, count: dataSize), into: rawBuf, path: path, blockStart: blockStart)
            do {
                if type == "OSMHeader" {
                    let (bbox, timestamp, required) = try parseHeaderBlock(payload)
                    if let missing = required.first(where: { !supportedFeatures.contains($0) }) {
                        throw ImportError(path: path, problem: "PBF needs unsupported feature \"\(missing)\"")
                    }
                    handler.header(bbox: bbox, timestamp: timestamp)
                } else {
                    try decoder.decode(payload, into: &handler)
                }
            } catch let error as ProtoError {
                throw ImportError(path: path, problem: "corrupt PBF block at byte \(blockStart): \(error.message)")
            } catch let error as ImportError {
                throw error
            } catch {
                throw ImportError(path: path, problem: "\(error)")
            }
        }
    }

    /// `BlobHeader`: type (1) and datasize (3).
    private static func parseBlobHeader(_ message: ProtoCursor) throws(ProtoError) -> (String, Int) {
        var c = message
        var type: String?
        var size: Int64?
        while !c.atEnd {
            let (field, wire) = try c.key()
            switch (field, wire) {
            case (1, ProtoCursor.wireLength): type = try c.string()
            case (3, ProtoCursor.wireVarint): size = try c.int64()
            default: try c.skip(wire: wire)
            }
        }
        guard let type, let size else { throw ProtoError("missing type or size") }
        return (type, Int(clamping: size))
    }

    /// The payload of a `Blob`: raw (1) as is; zlib (3), lz4 (6, an LZ4 block as libosmium writes
    /// it) or zstd (7, a zstd frame) decompressed into `rawBuf` to exactly `raw_size` (2).
    private static func unpack(_ message: ProtoCursor, into rawBuf: ByteBuffer, path: String, blockStart: Int) throws(ImportError) -> ProtoCursor {
        var c = message
        var raw: ProtoCursor?
        var compressed: ProtoCursor?
        var codec = Decompress.Codec.zlib
        var rawSize: Int64?
        var other: String?
        do {
            while !c.atEnd {
                let (field, wire) = try c.key()
                switch (field, wire) {
                case (1, ProtoCursor.wireLength): raw = try c.sub()
                case (2, ProtoCursor.wireVarint): rawSize = try c.int64()
                case (3, ProtoCursor.wireLength): compressed = try c.sub(); codec = .zlib
                case (4, _): other = "lzma"; try c.skip(wire: wire)
                case (5, _): other = "bzip2"; try c.skip(wire: wire)
                case (6, ProtoCursor.wireLength): compressed = try c.sub(); codec = .lz4
                case (7, ProtoCursor.wireLength): compressed = try c.sub(); codec = .zstd
                default: try c.skip(wire: wire)
                }
            }
        } catch {
            throw ImportError(path: path, problem: "corrupt PBF block at byte \(blockStart): \(error.message)")
        }
        if let raw { return raw }
        guard let compressed else {
            let how = other.map { "\($0)-compressed; only raw, zlib, lz4 and zstd blocks are supported (re-encode it, e.g. osmium cat)" } ?? "empty"
            throw ImportError(path: path, problem: "PBF block at byte \(blockStart) is \(how)")
        }
        guard let rawSize, rawSize >= 0, rawSize <= Int64(maxBlobSize) else {
            throw ImportError(path: path, problem: "corrupt PBF block at byte \(blockStart): missing or out-of-range raw size")
        }
        let size = Int(rawSize)
        rawBuf.reserve(size)
        let source = UnsafeRawBufferPointer(start: compressed.p, count: compressed.remaining)
        let dest = UnsafeMutableRawBufferPointer(start: rawBuf.base, count: size)
        let failure = codec == .zlib ? Inflate.inflate(source, into: dest, framing: .zlib) : Decompress.decompress(source, into: dest, codec: codec)
        if let failure {
            throw ImportError(path: path, problem: "corrupt PBF block at byte \(blockStart) (\(codec.rawValue)): \(failure)")
        }
        return ProtoCursor(start: rawBuf.bytes, count: size)
    }

    /// `HeaderBlock`: bbox (1), required_features (4), osmosis_replication_timestamp (32).
    private static func parseHeaderBlock(_ message: ProtoCursor) throws(ProtoError) -> (BoundingBox?, String?, [String]) {
        var c = message
        var bbox: BoundingBox?
        var timestamp: String?
        var required: [String] = []
        while !c.atEnd {
            let (field, wire) = try c.key()
            switch (field, wire) {
            case (1, ProtoCursor.wireLength):
                var b = try c.sub()
                var left: Int64 = 0, right: Int64 = 0, top: Int64 = 0, bottom: Int64 = 0
                while !b.atEnd {
                    let (f, w) = try b.key()
                    switch (f, w) {
                    case (1, ProtoCursor.wireVarint): left = try b.sint64()
                    case (2, ProtoCursor.wireVarint): right = try b.sint64()
                    case (3, ProtoCursor.wireVarint): top = try b.sint64()
                    case (4, ProtoCursor.wireVarint): bottom = try b.sint64()
                    default: try b.skip(wire: w)
                    }
                }
                let nano = PrimitiveBlockDecoder.nanoPerDegree
                let latLimit: UInt64 = 90_000_000_000, lonLimit: UInt64 = 180_000_000_000  // nanodegrees
                guard top.magnitude <= latLimit, bottom.magnitude <= latLimit,
                      left.magnitude <= lonLimit, right.magnitude <= lonLimit else {
                    throw ProtoError("header bounding box is off the globe")
                }
                bbox = BoundingBox(minLon: Double(left) / nano, minLat: Double(bottom) / nano,
                                   maxLon: Double(right) / nano, maxLat: Double(top) / nano)
            case (4, ProtoCursor.wireLength): required.append(try c.string())
            case (32, ProtoCursor.wireVarint):
                let seconds = try c.int64()
                if seconds > 0 { timestamp = ISO8601Time.format(Double(seconds)) }
            default: try c.skip(wire: wire)
            }
        }
        return (bbox, timestamp, required)
    }
}
