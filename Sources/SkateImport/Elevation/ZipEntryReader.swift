/// Extracts one entry from a zip archive held in memory (PKWARE APPNOTE: end-of-central-directory
/// record → central directory → local file header → stored or raw-deflate data). Enough for
/// zipped SRTM tiles, including archives written to a pipe (`cat N43E007.hgt | zip > t.hgt.zip`):
/// their local headers carry no sizes (a data descriptor follows the data; the central directory
/// has them, in a zip64 extra field when the writer could not know they would fit), and the
/// one entry is named "-". No encryption or multi-disk archives.
enum ZipEntryReader {
    private static let endOfDirectorySignature: UInt32 = 0x0605_4B50
    private static let directorySignature: UInt32 = 0x0201_4B50
    private static let localHeaderSignature: UInt32 = 0x0403_4B50
    private static let endOfDirectorySize = 22
    private static let maxCommentLength = 0xFFFF
    /// Largest entry we will inflate: a 1" tile is 25.9 MB; leave room, refuse absurd claims.
    static let maxEntrySize = 64 << 20
    private static let methodStored: UInt16 = 0, methodDeflate: UInt16 = 8
    /// Header id of the zip64 extended-information extra field (APPNOTE 4.5.3).
    private static let zip64ExtraID: UInt16 = 0x0001
    /// A 32-bit size or offset with this value is in the zip64 extra field instead.
    private static let zip64Marker = 0xFFFF_FFFF
    /// Names `zip` gives an entry it read from standard input.
    static func isPipeEntryName(_ name: String) -> Bool { name == "-" || name.isEmpty }

    /// The first entry whose name `accept` takes: its name and uncompressed bytes.
    /// - Throws: `ImportError` naming `path` when the archive is malformed or has no such entry.
    static func extract(_ zip: [UInt8], path: String, accept: (String) -> Bool) throws(ImportError) -> (name: String, data: [UInt8]) {
        func u16(_ i: Int) -> UInt16 { UInt16(zip[i]) | UInt16(zip[i + 1]) << 8 }
        func u32(_ i: Int) -> UInt32 { UInt32(u16(i)) | UInt32(u16(i + 2)) << 16 }
        func bad(_ problem: String) -> ImportError { ImportError(path: path, problem: problem) }

        guard zip.count >= endOfDirectorySize else { throw bad("not a zip archive (\(zip.count) bytes)") }
        var eocd = -1
        var i = zip.count - endOfDirectorySize
        let lowest = max(0, zip.count - endOfDirectorySize - maxCommentLength)
        while i >= lowest {
            if zip[i] == 0x50, u32(i) == endOfDirectorySignature { eocd = i; break }
            i -= 1
        }
        guard eocd >= 0 else { throw bad("not a zip archive (no end-of-central-directory record)") }
        let entries = Int(u16(eocd + 10))
        let directoryOffset = Int(u32(eocd + 16))
        guard directoryOffset < zip.count else { throw bad("corrupt zip: central directory lies past the end of the file") }

        var p = directoryOffset
        var names: [String] = []
        for _ in 0..<entries {
            guard p + 46 <= zip.count, u32(p) == directorySignature else { throw bad("corrupt zip: bad central directory entry at byte \(p)") }
            let method = u16(p + 10)
            var compressedSize = Int(u32(p + 20)), size = Int(u32(p + 24))
            let nameLength = Int(u16(p + 28)), extraLength = Int(u16(p + 30)), commentLength = Int(u16(p + 32))
            var localOffset = Int(u32(p + 42))
            guard p + 46 + nameLength + extraLength <= zip.count else { throw bad("corrupt zip: entry name runs past the end") }
            let name = String(decoding: zip[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            let extraStart = p + 46 + nameLength
            p += 46 + nameLength + extraLength + commentLength
            names.append(name)
            // A single entry read from a pipe has no name to go by: it is the tile.
            guard accept(name) || (entries == 1 && isPipeEntryName(name)) else { continue }

            if size == zip64Marker || compressedSize == zip64Marker || localOffset == zip64Marker {
                // zip64 extra: the 8-byte values, in this order, of whichever fields hold the marker.
                var e = extraStart
                var found = false
                while e + 4 <= extraStart + extraLength {
                    let id = u16(e), length = Int(u16(e + 2))
                    guard e + 4 + length <= extraStart + extraLength else { break }
                    if id == zip64ExtraID {
                        var q = e + 4
                        func next() -> Int? {
                            guard q + 8 <= e + 4 + length else { return nil }
                            let v = UInt64(u32(q)) | UInt64(u32(q + 4)) << 32
                            q += 8
                            return v > UInt64(Int32.max) ? Int.max : Int(v)
                        }
                        if size == zip64Marker { size = next() ?? -1 }
                        if compressedSize == zip64Marker { compressedSize = next() ?? -1 }
                        if localOffset == zip64Marker { localOffset = next() ?? -1 }
                        found = true
                        break
                    }
                    e += 4 + length
                }
                guard found, size >= 0, compressedSize >= 0, localOffset >= 0 else {
                    throw bad("corrupt zip: entry \(name) has no usable zip64 sizes")
                }
            }
            guard compressedSize <= zip.count, localOffset <= zip.count else { throw bad("truncated zip: entry \(name) runs past the end of the file") }
            guard size <= maxEntrySize else { throw bad("zip entry \(name) claims \(size) bytes, more than any SRTM tile") }
            guard localOffset + 30 <= zip.count, u32(localOffset) == localHeaderSignature else {
                throw bad("corrupt zip: bad local header for \(name)")
            }
            let dataStart = localOffset + 30 + Int(u16(localOffset + 26)) + Int(u16(localOffset + 28))
            guard dataStart + compressedSize <= zip.count else { throw bad("truncated zip: entry \(name) runs past the end of the file") }
            switch method {
            case methodStored:
                guard compressedSize == size else { throw bad("corrupt zip: stored entry \(name) has two different sizes") }
                return (name, Array(zip[dataStart..<(dataStart + size)]))
            case methodDeflate:
                var out = [UInt8](repeating: 0, count: size)
                let failure = zip.withUnsafeBytes { src in
                    out.withUnsafeMutableBytes { dst in
                        Inflate.inflate(UnsafeRawBufferPointer(rebasing: src[dataStart..<(dataStart + compressedSize)]), into: dst, framing: .rawDeflate)
                    }
                }
                if let failure { throw bad("corrupt zip entry \(name): \(failure)") }
                return (name, out)
            default:
                throw bad("zip entry \(name) uses compression method \(method); only stored and deflate are supported")
            }
        }
        throw bad("zip holds no matching entry (found: \(names.prefix(5).joined(separator: ", ")))")
    }
}
