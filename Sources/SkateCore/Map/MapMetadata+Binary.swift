/// The `.srmap` metadata section: a little-endian binary record, read without a JSON decoder so a
/// fresh process spends nothing on it.
///
/// ```
/// string name, string attribution, UInt32 source count, string × count, string osmTimestamp,
/// UInt8 hasElevation, Int64 inclineTaggedWays, Int64 waysKept,
/// string terrainMethod, Float64 demNoiseM, Int64 × 10 terrain counts (`TerrainReport` order)
/// string = UInt32 byte length + UTF-8 bytes
/// ```
extension MapMetadata {
    /// Longest string or list accepted when reading (a corrupt length must not allocate gigabytes).
    static let maxEncodedCount = 1 << 20

    func encoded() -> [UInt8] {
        var b: [UInt8] = []
        func str(_ s: String) { b.appendLE(UInt32(s.utf8.count)); b.append(contentsOf: s.utf8) }
        str(name); str(attribution)
        b.appendLE(UInt32(sources.count)); for s in sources { str(s) }
        str(osmTimestamp)
        b.append(hasElevation ? 1 : 0)
        b.appendLE(Int64(inclineTaggedWays)); b.appendLE(Int64(waysKept))
        str(terrainMethod)
        b.appendLE(terrain.demNoiseM.bitPattern)
        for c in terrain.counts { b.appendLE(Int64(c)) }
        return b
    }

    /// Reads `encoded()` bytes; nil when they are truncated, malformed or have trailing bytes.
    init?(encoded b: [UInt8]) {
        var at = 0
        func u32() -> Int? {
            guard at + 4 <= b.count else { return nil }
            var v: UInt32 = 0
            for i in 0..<4 { v |= UInt32(b[at + i]) << (8 * UInt32(i)) }
            at += 4
            return Int(v)
        }
        func i64() -> Int? {
            guard at + 8 <= b.count else { return nil }
            var v: UInt64 = 0
            for i in 0..<8 { v |= UInt64(b[at + i]) << (8 * UInt64(i)) }
            at += 8
            return Int(truncatingIfNeeded: v)
        }
        func str() -> String? {
            guard let n = u32(), n <= Self.maxEncodedCount, at + n <= b.count else { return nil }
            defer { at += n }
            return String(decoding: b[at..<(at + n)], as: UTF8.self)
        }
        guard let name = str(), let attribution = str(), let count = u32(), count <= Self.maxEncodedCount else { return nil }
        var sources: [String] = []
        for _ in 0..<count { guard let s = str() else { return nil }; sources.append(s) }
        guard let ts = str(), at < b.count, b[at] <= 1 else { return nil }
        let hasElevation = b[at] == 1
        at += 1
        guard let incline = i64(), let kept = i64(), let method = str(), let noiseBits = i64() else { return nil }
        var counts: [Int] = []
        for _ in 0..<TerrainReport.countFields { guard let c = i64(), c >= 0 else { return nil }; counts.append(c) }
        guard at == b.count else { return nil }
        self.init(name: name, attribution: attribution, sources: sources, osmTimestamp: ts,
                  hasElevation: hasElevation, inclineTaggedWays: incline, waysKept: kept)
        terrainMethod = method
        terrain = TerrainReport(demNoiseM: Double(bitPattern: UInt64(bitPattern: Int64(noiseBits))), counts: counts)
    }
}
