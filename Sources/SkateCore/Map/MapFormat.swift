import FoundationEssentials
import Glibc

/// Errors loading or saving a compiled map. Each names the file and the problem in one line.
public enum MapFileError: Error, CustomStringConvertible, Equatable {
    case unreadable(path: String, reason: String)
    case notAMap(path: String)
    case wrongVersion(path: String, found: UInt32, expected: UInt32)
    case truncated(path: String)
    case checksumMismatch(path: String)
    case corrupt(path: String, reason: String)
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let p, let r): return "\(p): cannot read map: \(r)"
        case .notAMap(let p): return "\(p): not a SkateRoute map (bad magic); compile one with `skateroute import`"
        case .wrongVersion(let p, let f, let e):
            return "\(p): map format version \(f), this build reads version \(e); re-run `skateroute import`"
        case .truncated(let p): return "\(p): map file is truncated"
        case .checksumMismatch(let p): return "\(p): map file is corrupt (checksum mismatch)"
        case .corrupt(let p, let r): return "\(p): map file is corrupt (\(r))"
        case .writeFailed(let p, let r): return "\(p): cannot write map: \(r)"
        }
    }
}

/// The compiled map file (`.srmap`): a 32-byte header, a section directory and 8-byte-aligned
/// little-endian arrays.
///
/// ```
/// 0   magic "SKTRMAP\0"          8 bytes
/// 8   format version             UInt32
/// 12  section count              UInt32
/// 16  payload length             UInt64   (bytes after the header)
/// 24  XXH64 of the payload       UInt64   (version 1 had CRC-32 + a reserved word here)
/// 32  directory: per section { id UInt32, element size UInt32, offset UInt64, length UInt64 }
///     then the sections, each starting on an 8-byte boundary
/// ```
/// Section 1 (metadata) is a small binary record (see `MapMetadata.encoded`); all others are raw
/// arrays. Version 2 added the derived sections (`MapDerived`: tag roughness, grades, climbs,
/// steepest descents, travel times, bearings, connected components, each mode's edge costs), so
/// loading does no per-edge work; version 3 added the ALT landmark tables (`Landmarks`); version 4
/// the place-search index (street candidates, folded name tokens); version 5 conditioned elevation
/// profiles (`TerrainConditioning`: node-shared heights smoothed along the network, per-edge
/// filter) with the terrain report in the metadata record, the skater's access model
/// (`AccessModel` verdicts in edge flag bits 23–29), lift/escalator connectors and the per-edge
/// step counts; version 6 one declaration per section (`MapSection`), sections whose bytes repeat
/// an earlier one's share them, the costing fingerprint (`CostingFingerprint`: derived tables
/// from other weights are ignored, not trusted) and landmark costs quantised to UInt16
/// (`LandmarkTable`); version 7 shapes without their end nodes (the nodes hold them), via points
/// as Int16 offsets from the edge's start node when they fit, no elevation offsets on a map
/// without elevation, and landmark tables shared by groups of modes (`LandmarkLayout`); version 8
/// each edge's braking- and caution-grade metres per direction (`BrakingGrade`), its raw OSM
/// `surface=*` and `smoothness=*` values as string ids (path details, issue 26), and the towns of
/// places and named streets and the house numbers (place search that knows its towns).
public enum MapFormat {
    public static let magic: [UInt8] = Array("SKTRMAP\0".utf8)
    /// Bump on any layout change; loaders refuse other versions.
    public static let version: UInt32 = 8
    static let headerSize = 32
    static let directoryEntrySize = 24

    // MARK: Writing

    /// Serialises a map to bytes: every section of `MapSection.all`, the derived ones always
    /// recomputed from the arrays being written (never copied from a loaded map). A section
    /// whose bytes equal the start of one already written points at those bytes instead of
    /// repeating them (on a map without a DEM the grades, climbs and descents are all zero, and
    /// the travel times are the same both ways). `write` lays the same bytes straight into the file.
    /// - Parameter progress: the share of the slow part (the landmark tables) done, 0…1.
    public static func encode(_ map: SkateMap, landmarks: LandmarkLayout = .standard,
                              progress: (@Sendable (Double) -> Void)? = nil) throws -> [UInt8] {
        var sink = MemoryMapSink()
        let sections = try lay(map, landmarks: landmarks, progress: progress, into: &sink)
        let digest = sink.bytes.withUnsafeBytes { XXHash64.hash(UnsafeRawBufferPointer(rebasing: $0[headerSize...])) }
        sink.overwrite(at: 0, header(sections: sections, payloadLength: sink.count - headerSize, digest: digest))
        return sink.bytes
    }

    /// Writes a map atomically: to a temporary file beside `path`, then renamed over it, so a
    /// failure never leaves a half-written map. The sections go straight into that file, one at a
    /// time (memory holds the map and one section, not copies of the file: issue 31), and the
    /// file then passes the very checks `load` runs (`decode` over its mapping, issue 29 row 5):
    /// a map this writes always loads, and one that would not is refused here with the loader's
    /// reason, nothing written. The bytes are those `encode` returns.
    /// - Throws: `MapFileError.writeFailed` naming `path` (what the loader would refuse, or the
    ///   write error: disk full, no such folder).
    /// - Parameter progress: as `encode`'s.
    /// - Parameter stampVerified: record the written file as verified (`MapVerification.firstUse`)
    ///   in the user's cache: its whole payload was just hashed and decoded here, so its first
    ///   load need not read every page again (0.3 s on a 935 MB region, issue 31). For
    ///   `skateroute import`; tests that damage a fresh file in place leave it false.
    public static func write(_ map: SkateMap, to path: String, landmarks: LandmarkLayout = .standard,
                             progress: (@Sendable (Double) -> Void)? = nil, stampVerified: Bool = false) throws {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent()
        let tmp = dir.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        let fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = errno == ENOENT ? "folder \(dir.path) does not exist"
                : "cannot write \(PathText.lastComponent(tmp)): \(String(cString: strerror(errno))); the old file was left as it was"
            throw MapFileError.writeFailed(path: path, reason: reason)
        }
        var isOpen = true
        defer { if isOpen { close(fd) } }
        do {
            var sink = FileMapSink(fd: fd, path: path, tmpName: PathText.lastComponent(tmp))
            let sections = try lay(map, landmarks: landmarks, progress: progress, into: &sink)
            let size = sink.count
            // Hashed and checked where it lies: the file's pages, not a copy of them.
            guard let base = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), base != MAP_FAILED else {
                throw MapFileError.writeFailed(path: path, reason: "cannot map the written file: \(String(cString: strerror(errno)))")
            }
            let file = MappedFile(base: UnsafeRawPointer(base), size: size)
            let digest = XXHash64.hash(UnsafeRawBufferPointer(rebasing: file.bytes[headerSize...]))
            try sink.overwrite(at: 0, header(sections: sections, payloadLength: size - headerSize, digest: digest))
            do {
                _ = try decode(file.bytes, path: path, file: file)
            } catch let e as MapFileError {
                let reason: String
                switch e {
                case .corrupt(_, let r): reason = r
                default: reason = e.description
                }
                throw MapFileError.writeFailed(path: path, reason: "the compiled map would not load (\(reason)); nothing written")
            }
            // A stamp is safe only once a rewrite in place can no longer keep the file's times
            // (`VerifiedMaps.settleSeconds`): the modification time is set that far back, so any
            // later write moves it. Best effort: without it the first load hashes, as before.
            let settled = stampVerified && VerifiedMaps.backdate(fd: fd)
            close(fd); isOpen = false
            // rename(2) replaces the target atomically: readers see the old map or the new one.
            guard rename(tmp, path) == 0 else {
                throw MapFileError.writeFailed(path: path, reason: String(cString: strerror(errno)))
            }
            var st = stat()
            if settled, stat(path, &st) == 0 { VerifiedMaps.record(VerifiedMaps.stamp(st, digest: digest), modified: st) }
        } catch {
            unlink(tmp)
            throw error
        }
    }

    static func align8(_ x: Int) -> Int { (x + 7) & ~7 }

    // MARK: Reading

    /// Loads a compiled map, verifying magic, version, checksum and internal consistency.
    /// - Throws: `MapFileError` naming the file and the problem.
    /// - Parameter copying: copy the arrays out of the file instead of viewing the mapping. For
    ///   long-running processes (the TUI, live rides): a mapped file that someone truncates in
    ///   place (`cp` over it; `skateroute import` replaces files by rename, which is safe) would
    ///   fault on the next read. Short commands keep the zero-copy view.
    /// - Parameter verification: when the payload's checksum is hashed (`.firstUse`: once per
    ///   unchanged file; see `MapVerification`). The structural checks run on every load.
    public static func load(path: String, copying: Bool = false, verification: MapVerification = .firstUse) throws -> SkateMap {
        try load(path: path, copying: copying, verification: verification, detachable: false).map
    }

    /// Loads like `load(path:)` without copying, and hands back the mapping so the caller can
    /// detach it from the file later (`MappedFile.detach`): a long-running session shows its
    /// first frame at once and makes the map its own on another core, where copying every array
    /// before the first frame took about a second on a region (issue 31). `file` is nil for an
    /// empty file.
    public static func loadDetachable(path: String, verification: MapVerification = .firstUse) throws -> (map: SkateMap, file: MappedFile?) {
        try load(path: path, copying: false, verification: verification, detachable: true)
    }

    /// The file's size in bytes when `load(path:)` would hash it whole (its first use here:
    /// no stamp in the cache), else nil (stamped, unreadable, not a map). For a line that tells
    /// the rider why a large map takes a moment to open once.
    public static func firstUseHashBytes(path: String) -> Int? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        var digest: UInt64 = 0
        guard fstat(fd, &st) == 0, Int(st.st_size) >= headerSize, pread(fd, &digest, 8, 24) == 8 else { return nil }
        return VerifiedMaps.contains(VerifiedMaps.stamp(st, digest: UInt64(littleEndian: digest))) ? nil : Int(st.st_size)
    }

    static func load(path: String, copying: Bool, verification: MapVerification, detachable: Bool) throws -> (map: SkateMap, file: MappedFile?) {
        // Plain open/fstat/mmap: a read-only private mapping the decoder copies from once.
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw MapFileError.unreadable(path: path, reason: errno == ENOENT ? "no such file" : "unreadable")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw MapFileError.unreadable(path: path, reason: (st.st_mode & S_IFMT) == S_IFDIR ? "is a folder" : "not a regular file")
        }
        let size = Int(st.st_size)
        guard size > 0 else { return (try decode(UnsafeRawBufferPointer(start: nil, count: 0), path: path), nil) }
        // The header's digest names the content; with the file's identity it is the stamp a
        // verified load left (`MapVerification.firstUse`).
        var digest: UInt64 = 0
        let stamp: String? = size >= headerSize && pread(fd, &digest, 8, 24) == 8 ? VerifiedMaps.stamp(st, digest: UInt64(littleEndian: digest)) : nil
        let hash = verification == .always || stamp.map { !VerifiedMaps.contains($0) } ?? true
        // MAP_POPULATE when hashing: the checksum reads every page anyway; one call maps them all
        // instead of a page fault per 64 KB. Without it, only the pages a plan touches are read.
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE | (hash ? MapFormat.populateFlag : 0), fd, 0), base != MAP_FAILED else {
            throw MapFileError.unreadable(path: path, reason: "unreadable")
        }
        // A plan reads a few scattered pages: without this, each first touch reads the 128 KB
        // around it, in large folios a fault then maps whole, so a plan's resident pages grew with
        // the file (37 → 80 MB from one Heidelberg to four, issue 31). Not when copying or
        // hashing: those read every page in order.
        // (A session's mapping is advised by its lease, or read whole by its detach: `MapLease`.)
        if !hash && !copying && !detachable { madvise(base, size, MapFormat.randomAccessAdvice) }
        // The map's arrays view this mapping (no copy); it is unmapped when the last one goes.
        // A session's file stays open for its lease (`MapLease`).
        let file = MappedFile(base: UnsafeRawPointer(base), size: size, descriptor: detachable ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1)
        let map = try decode(file.bytes, path: path, file: copying ? nil : file, verifyChecksum: hash)
        if hash, let stamp { VerifiedMaps.record(stamp, modified: st) }
        return (map, copying ? nil : file)
    }

    /// Decodes a map from bytes (see `load(path:)`).
    public static func decode(_ raw: UnsafeRawBufferPointer, path: String) throws -> SkateMap {
        try decode(raw, path: path, file: nil)
    }

    /// Decodes; with `file` (whose bytes `raw` are) the arrays view the mapping instead of copying.
    static func decode(_ raw: UnsafeRawBufferPointer, path: String, file: MappedFile?, verifyChecksum: Bool = true) throws -> SkateMap {
        guard raw.count >= headerSize else {
            if raw.count >= 8 && Array(raw[0..<8]) == magic { throw MapFileError.truncated(path: path) }
            throw MapFileError.notAMap(path: path)
        }
        guard Array(raw[0..<8]) == magic else { throw MapFileError.notAMap(path: path) }
        let ver = raw.loadLE(UInt32.self, at: 8)
        guard ver == version else { throw MapFileError.wrongVersion(path: path, found: ver, expected: version) }
        let count = Int(raw.loadLE(UInt32.self, at: 12))
        let payloadLen = raw.loadLE(UInt64.self, at: 16)
        let digest = raw.loadLE(UInt64.self, at: 24)
        guard payloadLen == UInt64(raw.count - headerSize) else { throw MapFileError.truncated(path: path) }
        let payload = UnsafeRawBufferPointer(rebasing: raw[headerSize...])
        guard !verifyChecksum || XXHash64.hash(payload) == digest else { throw MapFileError.checksumMismatch(path: path) }
        guard count < 1000, headerSize + count * directoryEntrySize <= raw.count else {
            throw MapFileError.corrupt(path: path, reason: "bad section directory")
        }
        let table = MapSection.all
        let maxId = Int(table.map(\.id).max() ?? 0)
        // Indexed by section id (a plain array: no hashing set-up in a fresh process).
        var dir = [(elem: Int, off: Int, len: Int)?](repeating: nil, count: maxId + 1)
        for i in 0..<count {
            let at = headerSize + i * directoryEntrySize
            let id = raw.loadLE(UInt32.self, at: at)
            let elem = Int(raw.loadLE(UInt32.self, at: at + 4))
            let off = raw.loadLE(UInt64.self, at: at + 8), len = raw.loadLE(UInt64.self, at: at + 16)
            guard off <= UInt64(raw.count), len <= UInt64(raw.count) - off, elem > 0, Int(len) % elem == 0 else {
                throw MapFileError.corrupt(path: path, reason: "section \(id) out of bounds")
            }
            if Int(id) < dir.count { dir[Int(id)] = (elem, Int(off), Int(len)) }
        }
        func reader(_ s: MapSection) throws -> MapSectionReader {
            guard let d = dir[Int(s.id)] else { throw MapFileError.corrupt(path: path, reason: "missing section \(s.name)") }
            return MapSectionReader(path: path, name: s.name, elementSize: d.elem, offset: d.off, length: d.len, raw: raw, file: file)
        }
        let metaSection = table.first { $0.id == MapSection.metadataId }!
        let metaBytes: [UInt8] = try reader(metaSection).array(UInt8.self).array
        guard let meta = MapMetadata(encoded: metaBytes) else {
            throw MapFileError.corrupt(path: path, reason: "unreadable metadata")
        }
        var m = SkateMap(metadata: meta)
        var d = MapDerived.empty
        for s in table where s.group == .base { try s.read(&m, &d, reader(s)) }
        try checkLengths(table, group: .base, map: m, derived: d, path: path)
        if let problem = m.consistencyProblem(scanValues: verifyChecksum) { throw MapFileError.corrupt(path: path, reason: problem) }
        var sizes: [MapSectionSize] = []
        var seen: [Int] = []  // an array: a Set would cost a runtime conformance scan (IntKeyedTable)
        for s in table {
            if let e = dir[Int(s.id)] {
                sizes.append(MapSectionSize(name: s.name, bytes: seen.contains(e.off) ? 0 : e.len))
                seen.append(e.off)
            }
        }
        m.fileSections = sizes
        // Derived tables from another costing (weights, constants, physics, formula or the mode
        // list changed since import) are ignored: the map is used as an in-memory one would be.
        let fingerprint = try reader(table.first { $0.id == MapSection.fingerprintId }!).array(UInt64.self)
        guard fingerprint.count == 1, fingerprint[0] == CostingFingerprint.current else {
            m.derivedCostsStale = true
            return m
        }
        for s in table where s.group == .derived { try s.read(&m, &d, reader(s)) }
        try checkLengths(table, group: .derived, map: m, derived: d, path: path)
        // Counting the named places reads every place's name offsets (a region's places run to
        // megabytes): only when the values are scanned (a file's first use), like the rest.
        var placesNamed: Int?
        if verifyChecksum {
            var n = 0
            for i in 0..<m.placeCount where m.placeName[i] != 0 && m.stringStart[Int(m.placeName[i]) + 1] > m.stringStart[Int(m.placeName[i])] { n += 1 }
            placesNamed = n
        }
        if let problem = d.problem(nodes: m.nodeCount, edges: m.edgeCount, placesNamed: placesNamed, scanValues: verifyChecksum) { throw MapFileError.corrupt(path: path, reason: problem) }
        m.derived = d
        return m
    }

    /// Every section of `group` has the length its declaration asks for.
    static func checkLengths(_ table: [MapSection], group: MapSection.Group, map: SkateMap, derived: MapDerived, path: String) throws {
        let hasLandmarks = derived.landmarks.count == Landmarks.count
        for s in table where s.group == group
            && !s.length.allows(s.count(map, derived), nodes: map.nodeCount, edges: map.edgeCount, hasLandmarks: hasLandmarks) {
            throw MapFileError.corrupt(path: path, reason: group == .base ? "section \(s.name) has the wrong length" : "derived section \(s.name) has the wrong length")
        }
    }
}

extension SkateMap {
    /// Longest edge (metres) a map may hold: the compiler splits ways every ≤ 120 m; anything near
    /// this is damage, and would make plan building sample without end.
    public static let maxEdgeLength: Float = 100_000
    /// Largest |elevation| in metres (Everest and the Dead Sea fit many times over).
    public static let maxElevationMagnitude: Float = 20_000

    /// Checks every index and CSR array so that a loaded map can be used without bounds traps.
    /// Returns a description of the first problem, or nil. O(nodes + edges + points).
    /// - Parameter scanValues: also scan every value the router indexes or computes with (node
    ///   and edge ranges, offsets, coordinates, lengths). `load` scans when it hashes the file (its
    ///   first use, or `.always`): a file whose identity stamp (inode, size, mtime and ctime) is
    ///   unchanged since a full check cannot hold different values, and the scans read ~6 MB of a
    ///   city map's pages that a plan otherwise never touches. The shape checks (array lengths,
    ///   offsets' ends) always run.
    public func consistencyProblem(scanValues: Bool = true) -> String? {
        let n = nodeCount, e = edgeCount
        if nodeLon.count != n || nodeFlags.count != n || nodeOsmId.count != n { return "node arrays differ in length" }
        for a in [edgeTo.count, edgeLength.count, edgeHighway.count, edgeSurface.count, edgeSmoothness.count,
                  edgeFlags.count, edgeIncline.count, edgeCrossings.count, edgeName.count, edgeWayId.count] where a != e {
            return "edge arrays differ in length"
        }
        if !edgeStepCount.isEmpty && edgeStepCount.count != e { return "edge arrays differ in length" }
        for a in [edgeSurfaceTag, edgeSmoothnessTag] where !a.isEmpty && a.count != e { return "edge arrays differ in length" }
        // Without elevation a file stores no elevation offsets (a map built in memory holds zeros).
        let elevOffsets = !(edgeElevStart.isEmpty && elevation.isEmpty)
        if edgeViaStart.count != e + 1 || (elevOffsets && edgeElevStart.count != e + 1) || adjStart.count != n + 1 { return "bad offsets" }
        if viaLon.count != viaLat.count || viaOffsetLon.count != viaOffsetLat.count { return "geometry arrays differ" }
        // Via points in one form only; the offset form adds to fixed-point node coordinates.
        if !viaOffsetLat.isEmpty && !viaLat.isEmpty { return "geometry arrays differ" }
        if !viaOffsetLat.isEmpty && !(nodeLat.isFixed && nodeLon.isFixed) { return "via offsets need fixed-point nodes" }
        // The offset tables' ends: with them, every range a table hands out of a trusted file lies
        // inside its array.
        func endsOK(_ s: FlatArray<UInt32>, _ total: Int) -> Bool { s.first == 0 && Int(s.last ?? 0) == total }
        if !endsOK(edgeViaStart, viaPointCount) { return "bad geometry offsets" }
        if elevOffsets && !endsOK(edgeElevStart, elevation.count) { return "bad elevation offsets" }
        if !endsOK(adjStart, adjacency.count) { return "bad adjacency offsets" }
        if !endsOK(stringStart, stringBytes.count) { return "bad string table" }
        let p = placeLat.count
        if placeLon.count != p || placeName.count != p || placeKind.count != p || placeCategory.count != p { return "place arrays differ" }
        let t = townName.count
        if townParent.count != t || townLat.count != t || townLon.count != t || !(placeTown.isEmpty || placeTown.count == p) { return "town arrays differ" }
        let a = addressStreet.count
        if addressNumber.count != a || addressLat.count != a || addressLon.count != a || addressTown.count != a { return "address arrays differ" }
        let z = zoneKind.count
        if zoneName.count != z || zoneRingStart.count != z + 1 || zoneLat.count != zoneLon.count { return "zone arrays differ" }
        if !endsOK(zoneRingStart, zoneLat.count) { return "bad zone rings" }
        if grid.cellStart.count != grid.nx * grid.ny + 1 || !endsOK(grid.cellStart, grid.cellEdges.count) { return "bad grid" }
        guard scanValues else { return nil }
        // Values the router computes with: a crafted file must not make it loop for ever or trap.
        // Loops over the raw buffers (no per-element bounds check; min/max reductions where one
        // suffices): they read most of a map's base arrays, so they run only with `scanValues`.
        let maxLength = Self.maxEdgeLength
        if !edgeLength.withUnsafeBufferPointer({ $0.allSatisfy { $0 >= 0 && $0 <= maxLength } }),
           let i = (0..<e).first(where: { !(edgeLength[$0] >= 0 && edgeLength[$0] <= maxLength) }) {
            return "edge \(i) has an impossible length"
        }
        if !(nodeLat.allWithin(90) && nodeLon.allWithin(180)),
           let i = (0..<n).first(where: { !(abs(nodeLat[$0]) <= 90 && abs(nodeLon[$0]) <= 180) }) {
            return "node \(i) lies off the globe"
        }
        if !(viaLat.allWithin(90) && viaLon.allWithin(180)) { return "a shape point lies off the globe" }
        let maxElevation = Self.maxElevationMagnitude
        if !elevation.withUnsafeBufferPointer({ $0.allSatisfy { $0.isFinite && abs($0) < maxElevation } }) { return "an elevation sample is impossible" }
        // Offsets never decrease (by at least `minRun`); their ends were checked above.
        func runsOK(_ s: FlatArray<UInt32>, minRun: Int = 0) -> Bool {
            let step = UInt32(minRun)
            return s.withUnsafeBufferPointer { b in
                var ok = true
                for i in 1..<b.count { ok = ok && b[i] >= b[i - 1] &+ step && b[i - 1] <= UInt32.max - step }
                return ok
            }
        }
        func allBelow(_ a: FlatArray<UInt32>, _ limit: Int, shift: UInt32 = 0) -> Bool {
            a.withUnsafeBufferPointer { b in
                var hi: UInt32 = 0
                for x in b { hi = Swift.max(hi, x >> shift) }
                return b.isEmpty || Int(hi) < limit
            }
        }
        if !runsOK(edgeViaStart) { return "bad geometry offsets" }
        if elevOffsets && !runsOK(edgeElevStart) { return "bad elevation offsets" }
        if !runsOK(adjStart) { return "bad adjacency offsets" }
        if !runsOK(stringStart) { return "bad string table" }
        let sc = UInt32(stringCount)
        if !(allBelow(edgeFrom, n) && allBelow(edgeTo, n) && allBelow(edgeName, Int(sc))) {
            for i in 0..<e {
                if Int(edgeFrom[i]) >= n || Int(edgeTo[i]) >= n { return "edge \(i) points past the nodes" }
                if edgeName[i] >= sc { return "edge \(i) has a bad name" }
            }
        }
        if !(allBelow(edgeSurfaceTag, Int(sc)) && allBelow(edgeSmoothnessTag, Int(sc))) { return "an edge has a bad surface or smoothness tag" }
        if !allBelow(adjacency, e, shift: 1) { return "adjacency points past the edges" }
        for i in 0..<p where placeName[i] >= sc || placeCategory[i] >= sc { return "place \(i) has a bad name" }
        // Town references (index + 1, 0 = none) inside the town table; names inside the strings.
        for i in 0..<t where townName[i] >= sc || Int(townParent[i]) > t { return "town \(i) is bad" }
        if !(allBelow(placeTown, t + 1) && allBelow(addressTown, t + 1)) { return "a town reference is past the towns" }
        if !edgeTown.withUnsafeBufferPointer({ $0.allSatisfy { Int($0) <= t } }) { return "an edge's town is past the towns" }
        if !(allBelow(addressStreet, Int(sc)) && allBelow(addressNumber, Int(sc)) && allBelow(townName, Int(sc))) { return "an address has a bad name" }
        if !runsOK(zoneRingStart) { return "bad zone rings" }
        for i in 0..<z where zoneName[i] >= sc { return "zone \(i) has a bad name" }
        if !runsOK(grid.cellStart) { return "bad grid" }
        if !allBelow(grid.cellEdges, e) { return "grid points past the edges" }
        return nil
    }
}

extension Array where Element == UInt8 {
    mutating func appendLE<T: FixedWidthInteger>(_ v: T) {
        Swift.withUnsafeBytes(of: v.littleEndian) { append(contentsOf: $0) }
    }
}

extension UnsafeRawBufferPointer {
    func loadLE<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
