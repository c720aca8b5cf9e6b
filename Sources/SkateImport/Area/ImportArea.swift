import SkateCore

/// The part of an extract an import keeps (`--bbox`, `--poly`): nodes inside it, and the pieces
/// of ways that run through it.
public enum ImportArea: Sendable, Equatable {
    case box(BoundingBox)
    case polygon(OsmosisPolygon)

    /// Whether a node at this position is kept.
    public func contains(lat: Double, lon: Double) -> Bool {
        switch self {
        case .box(let b): return lat >= b.minLat && lat <= b.maxLat && lon >= b.minLon && lon <= b.maxLon
        case .polygon(let p): return p.contains(lat: lat, lon: lon)
        }
    }

    /// The box around the area, degrees.
    public var bounds: BoundingBox {
        switch self {
        case .box(let b): return b
        case .polygon(let p): return p.bounds
        }
    }

    /// `--bbox S,W,N,E` in degrees (south, west, north, east: the order of `lat,lon` pairs).
    /// - Returns: the box, or a one-line problem.
    public static func parseBox(_ text: String) -> Result<BoundingBox, ImportAreaError> {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingWhitespace()) }
        guard parts.count == 4, let s = parts[0], let w = parts[1], let n = parts[2], let e = parts[3],
              [s, w, n, e].allSatisfy(\.isFinite) else {
            return .failure(ImportAreaError("--bbox '\(TerminalSafe.quoted(text, maxLength: 60))': expected four numbers S,W,N,E in degrees, e.g. 49.405,8.685,49.418,8.715"))
        }
        guard abs(s) <= 90, abs(n) <= 90, abs(w) <= 180, abs(e) <= 180 else {
            return .failure(ImportAreaError("--bbox '\(TerminalSafe.quoted(text, maxLength: 60))': latitudes must be within -90…90 and longitudes within -180…180 (order S,W,N,E)"))
        }
        guard s < n, w < e else {
            return .failure(ImportAreaError("--bbox '\(TerminalSafe.quoted(text, maxLength: 60))': south must be below north and west below east (order S,W,N,E)"))
        }
        return .success(BoundingBox(minLon: w, minLat: s, maxLon: e, maxLat: n))
    }
}

/// A `--bbox` or `--poly` the importer cannot use: one line.
public struct ImportAreaError: Error, CustomStringConvertible, Equatable, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
