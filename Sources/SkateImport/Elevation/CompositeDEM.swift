import SkateCore

/// Several DEM files used together (`import --dem a --dem b …`): where they overlap, the layer
/// with the finest resolution answers; where it has no data (outside its samples, or next to a
/// void it could not fill) the next finest does. Layers of about the same resolution keep the
/// order they were given in, so the first one wins.
public struct CompositeDEM: ElevationSource, Sendable {
    /// One loaded file.
    public struct Layer: Sendable {
        /// The file as given on the command line.
        public let path: String
        public let source: any DEMLayer
    }

    /// Resolutions within this fraction of each other count as equal: the same 3" grid measures
    /// about 1 % coarser in metres per degree of latitude further south, while real choices differ
    /// by 3× or more (1" vs 3", 1 m vs 30 m).
    public static let sameResolutionTolerance = 0.05

    /// The layers, finest first.
    public let layers: [Layer]
    /// Files given that lie wholly outside the map's box (only when several were given).
    public let skipped: [String]
    /// Each layer's `bounds`, read once: a lookup tests these instead of asking every layer
    /// (each `for layer in layers` step copied the layer, retaining its file and its samples:
    /// three quarters of an import's DEM sampling time on a region, with the two cores
    /// contending for the same reference counts; perf, K = 7, issue 31).
    private let layerBounds: [BoundingBox]

    /// Stacks loaded layers, given in command-line order.
    public init(layers given: [(path: String, source: any DEMLayer)], skipped: [String] = []) {
        // Sort by resolution, group resolutions within the tolerance, keep the given order within a group.
        let byResolution = given.indices.sorted { (given[$0].source.resolutionMetres, $0) < (given[$1].source.resolutionMetres, $1) }
        var group = [Int](repeating: 0, count: given.count)
        var groupStart = -1.0, g = -1
        for i in byResolution {
            let r = given[i].source.resolutionMetres
            if g < 0 || r > groupStart * (1 + Self.sameResolutionTolerance) { g += 1; groupStart = r }
            group[i] = g
        }
        let order = given.indices.sorted { (group[$0], $0) < (group[$1], $1) }
        layers = order.map { Layer(path: given[$0].path, source: given[$0].source) }
        layerBounds = layers.map(\.source.bounds)
        self.skipped = skipped
    }

    /// Loads every file, each cropped around `window` (the map's box; nil loads whole files).
    /// When several files are given, one with no data near the map is skipped (a folder of tiles
    /// may hold more than the map needs); a single such file is an error.
    /// - Throws: `ImportError` naming the first file that cannot be read.
    public static func load(paths: [String], window: BoundingBox?) throws -> CompositeDEM {
        var loaded: [(path: String, source: any DEMLayer)] = []
        var skipped: [String] = []
        for path in paths {
            do {
                loaded.append((path, try DEMReader.load(path: path, window: window)))
            } catch let error as ImportError where paths.count > 1 && DEMReader.isNoOverlap(error) {
                skipped.append(path)
            }
        }
        return CompositeDEM(layers: loaded, skipped: skipped)
    }

    /// Height in metres from the finest layer with data at the point; nil where none has any.
    public func elevation(lat: Double, lon: Double) -> Double? {
        for i in layerBounds.indices {
            let b = layerBounds[i]
            guard lat >= b.minLat, lat <= b.maxLat, lon >= b.minLon, lon <= b.maxLon else { continue }
            if let h = layers[i].source.elevation(lat: lat, lon: lon) { return h }
        }
        return nil
    }

    /// Sample spacing of the finest layer in metres (what the map's best grades can resolve); nil without layers.
    public var finestResolutionMetres: Double? { layers.first?.source.resolutionMetres }

    /// Cell size the terrain conditioning assumes, metres: the coarsest layer's, so its noise
    /// is never underestimated where that layer answers (`TerrainConditioning.noise(forCellSize:)`).
    public var cellSizeMetres: Double { layers.map(\.source.resolutionMetres).max() ?? 0 }

    /// Box of all layers' data, degrees.
    public var bounds: BoundingBox {
        var box = BoundingBox.empty
        for l in layers { box.extend(lat: l.source.bounds.minLat, lon: l.source.bounds.minLon); box.extend(lat: l.source.bounds.maxLat, lon: l.source.bounds.maxLon) }
        return box
    }
}
