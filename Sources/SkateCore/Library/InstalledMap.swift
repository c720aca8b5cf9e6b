import FoundationEssentials
import Glibc

/// What `skateroute maps` shows of one installed map (and what a map picker needs).
public struct InstalledMap: Sendable, Equatable {
    /// Library name (file name without `.srmap`).
    public var name: String
    /// The area name stored in the map (`import --name`).
    public var area: String
    public var path: String
    public var origin: MapLibrary.Origin
    /// Box of the map's nodes, degrees.
    public var bbox: BoundingBox
    /// File size, bytes.
    public var bytes: Int
    /// When the file was written (its modification time), seconds since 1970, UTC.
    public var built: Double
    /// The OSM extract it was built from, and that extract's own timestamp ("" when unknown).
    public var source: String
    public var sourceTimestamp: String
    /// The elevation files it was built with (empty: no elevation, grades are 0).
    public var dem: [String]

    /// Reads the facts of `entry`'s map.
    /// - Throws: `MapFileError` when the file is not a readable map.
    public static func describe(_ entry: MapLibrary.Entry) throws -> InstalledMap {
        let map = try MapFormat.load(path: entry.path)
        var st = stat()
        let statOK = stat(entry.path, &st) == 0
        let sources = map.metadata.sources
        return InstalledMap(name: entry.name, area: map.metadata.name, path: entry.path, origin: entry.origin,
                            bbox: map.bbox, bytes: statOK ? Int(st.st_size) : 0,
                            built: statOK ? Double(st.st_mtim.tv_sec) : 0,
                            source: sources.first ?? "", sourceTimestamp: map.metadata.osmTimestamp,
                            dem: map.metadata.hasElevation ? Array(sources.dropFirst()) : [])
    }

    /// Whether the point lies in the map's box.
    public func covers(_ c: Coordinate) -> Bool {
        c.lat >= bbox.minLat && c.lat <= bbox.maxLat && c.lon >= bbox.minLon && c.lon <= bbox.maxLon
    }

    /// The installed maps whose box holds `point` (unreadable maps skipped), smallest box first.
    public static func covering(_ point: Coordinate, in library: MapLibrary) -> [InstalledMap] {
        library.entries().compactMap { try? describe($0) }.filter { $0.covers(point) }
            .sorted { ($0.bbox.maxLat - $0.bbox.minLat) * ($0.bbox.maxLon - $0.bbox.minLon) < ($1.bbox.maxLat - $1.bbox.minLat) * ($1.bbox.maxLon - $1.bbox.minLon) }
    }
}
