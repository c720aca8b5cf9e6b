import FoundationEssentials
import SkateCore
import SkateRide

extension SkateStore {
    /// Indexes new or changed ride logs (`*.ndjson`) in `dir`: a log whose size and modification
    /// time match its index entry is not read again; a simulated rider's log is never counted.
    /// `map` is asked for (once, at the first log to read) to take climbs from its elevation.
    /// - Returns: one warning line per log cut short or unreadable.
    /// - Throws: `StoreError` when the index cannot be read or written.
    public func indexRideLogs(in dir: String, map: () -> SkateMap?) throws -> [String] {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: dir) else { return [] }
        let known = Dictionary(try indexedRides().map { ($0.record.path, $0) }, uniquingKeysWith: { a, _ in a })
        var loaded: SkateMap??
        var warnings: [String] = []
        for name in names.sorted() where name.hasSuffix(".ndjson") {
            let path = PathText.appending(dir, name)
            guard let attrs = try? fm.attributesOfItem(atPath: path), (attrs[.type] as? FileAttributeType) == .typeRegular else { continue }
            let size = Self.fileSize(attrs[.size])
            let mtime = (attrs[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            if let k = known[path], k.fileSize == size, k.fileModified == mtime {
                if !k.record.complete { warnings.append("\(path): ride log has no summary line; counted its samples") }
                continue
            }
            if loaded == nil { loaded = .some(map()) }
            do {
                let (record, warning) = try RideLogIndexer.read(path: path, map: loaded ?? nil)
                try indexRide(IndexedRide(record: record, fileSize: size, fileModified: mtime))
                if let warning { warnings.append(warning) }
            } catch let e as RideLogIndexer.Failure {
                if !e.simulated { warnings.append("skipped " + e.description) }
            }
        }
        return warnings
    }

    /// The `.size` file attribute as bytes (FileManager gives an unsigned integer), 0 when absent.
    static func fileSize(_ attribute: Any?) -> Int64 {
        switch attribute {
        case let v as UInt: return Int64(clamping: v)
        case let v as UInt64: return Int64(clamping: v)
        case let v as Int: return Int64(v)
        case let v as Int64: return v
        default: return 0
        }
    }
}
