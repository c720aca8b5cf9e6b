import FoundationEssentials
import Glibc
import SkateCore

/// Which map a saved thing was made on: the map's name and the XXHash64 digest its file header
/// carries over the whole payload (any re-import that changes a byte changes it).
enum MapIdentity {
    /// Byte offset and length of the payload digest in a `.srmap` header (see `MapFormat`).
    static let digestOffset = 24, digestLength = 8

    /// "name@digest-hex", or "name@?" when the header cannot be read.
    static func of(path: String, map: SkateMap) -> String {
        var digest = "?"
        do {
            if let d = RawFile.readPrefix(of: path, count: digestOffset + digestLength), d.count == digestOffset + digestLength {
                digest = d.suffix(digestLength).reversed().map { b in
                    let s = String(b, radix: 16)
                    return s.count == 1 ? "0" + s : s
                }.joined()
            }
        }
        return "\(map.metadata.name)@\(digest)"
    }
}
