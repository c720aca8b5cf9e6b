import Glibc
import SkateCore

/// Ground, not roofs: a DEM like SRTM is a *surface* model, so a post whose cell is mostly
/// covered by buildings reads their roofs (the Larvotto towers lift Monaco's seafront by 15 m).
/// At import, before any profile is sampled, every gridded DEM layer is rewritten around the map:
///
/// 1. each post's **roofed share** — the share of its cell (the rectangle of points nearer to it
///    than to any other post) inside OSM `building=*` outlines — is measured by point sampling
///    (`subsamplesPerSide`² points per cell);
/// 2. posts with a roofed share ≥ `roofedShare` are dropped and **re-interpolated from the open
///    posts nearest to them** (`VoidFill`'s onion peeling with no relaxation: each roofed post
///    takes the mean of its nearest known neighbours, ring by ring inwards). A street beside a
///    block lies at the open ground beside it; a Laplace fill over a whole roofed hillside would
///    instead pull every post towards the far rim and change nothing where it matters
///    (measured on Larvotto: the relaxed fill left the Grimaldi Forum's 16 m roof post untouched);
/// 3. a re-interpolated post is only ever **lowered**, and by no more than the buildings on its
///    cell can explain: ground = max(fill, DEM − mean building height over the cell), capped at
///    the DEM. A surface model only adds height, so a roofed post in a hollow keeps its value;
///    and a plateau covered by houses (Monaco-Ville) is not cut down to the harbour the open posts
///    around it stand in — it loses at most its roofs (heights from `height`, `building:levels`,
///    else `BuildingFootprints.defaultHeight`).
///
/// Layers without posts (an analytic test terrain) and maps without buildings are left as they
/// are. `GroundReport` counts what changed (`skateroute import --verbose` prints it).
public enum GroundModel {
    /// Points sampled per side of a post's cell (4 → 16 points, the roofed share to 1/16).
    public static let subsamplesPerSide = 4
    /// Roofed share from which a post counts as a roof: SRTM's C-band return over a 90 m cell
    /// follows the larger part of what it sees, and a quarter of a cell under 10-storey blocks
    /// already lifts the post by several metres (Larvotto).
    public static let roofedShare = 0.25
    /// Relaxation passes after peeling (see step 2): none, so a roofed post listens to its
    /// nearest open ground only.
    public static let relaxationPasses = 0

    /// The method, as stored in the map's terrain method and printed by `map info`.
    public static let method = "DEM posts ≥ 25 % under OSM buildings re-interpolated from the nearest open posts, lowered by at most the cell's mean building height"

    /// `dem` with every gridded layer's roofed posts around `box` replaced, and what changed.
    public static func apply(to dem: CompositeDEM, footprints: BuildingFootprints, box: BoundingBox) -> (CompositeDEM, GroundReport) {
        var report = GroundReport()
        guard !footprints.isEmpty, !box.isEmpty else { return (dem, report) }
        let layers = dem.layers.map { layer -> (path: String, source: any DEMLayer) in
            guard let (ground, r) = groundLayer(layer.source, footprints: footprints, box: box) else { return (layer.path, layer.source) }
            report.add(r)
            return (layer.path, ground)
        }
        return (CompositeDEM(layers: layers, skipped: dem.skipped), report)
    }

    /// One layer's ground version, or nil when it has no posts or no roofed post near the map.
    static func groundLayer(_ layer: any DEMLayer, footprints: BuildingFootprints, box: BoundingBox) -> (GroundLayer, GroundReport)? {
        guard let w = layer.postWindow(covering: box) else { return nil }
        let (share, roofHeight) = roofedShares(w, footprints: footprints)
        var values = w.values
        var report = GroundReport()
        for i in values.indices where share[i] >= roofedShare && !values[i].isNaN {
            values[i] = .nan
            report.postsRoofed += 1
        }
        guard report.postsRoofed > 0 else { return nil }
        _ = VoidFill.fill(&values, width: w.width, height: w.height, passes: relaxationPasses)
        var ground = w.values
        for i in ground.indices where share[i] >= roofedShare {
            let f = values[i]
            guard !f.isNaN, !ground[i].isNaN, f < ground[i] else { continue }
            let g = max(f, ground[i] - Float(roofHeight[i]))
            guard g < ground[i] else { continue }
            let drop = Double(ground[i] - g)
            ground[i] = g
            report.postsLowered += 1
            report.loweredMetres += drop
            report.maxLoweredMetres = max(report.maxLoweredMetres, drop)
        }
        let grid = GeoGrid(path: "ground", width: w.width, height: w.height, georeference: w.georeference, values: ground, nodata: nil)
        return (GroundLayer(original: layer, ground: grid), report)
    }

    /// Per post of the window: the share of its cell inside any building outline (0…1) and the
    /// mean building height over the cell (metres; open ground counts 0, the first outline found
    /// over a point gives its height).
    static func roofedShares(_ w: PostWindow, footprints: BuildingFootprints) -> (share: [Double], meanHeight: [Double]) {
        let k = subsamplesPerSide
        var hits = [UInt64](repeating: 0, count: w.width * w.height)
        var heightSum = [Double](repeating: 0, count: w.width * w.height)
        let g = w.georeference
        let hull = g.bounds(width: w.width, height: w.height)
        for ring in footprints.rings {
            let b = ring.box
            guard b.maxLat >= hull.minLat, b.minLat <= hull.maxLat, b.maxLon >= hull.minLon, b.minLon <= hull.maxLon else { continue }
            // Posts whose cell (± half a step) can touch the ring's box.
            var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
            for (lat, lon) in [(b.minLat, b.minLon), (b.minLat, b.maxLon), (b.maxLat, b.minLon), (b.maxLat, b.maxLon)] {
                let p = g.indices(lat: lat, lon: lon)
                minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
            let x0 = max(0, Int((minX - 0.5).rounded(.down))), x1 = min(w.width - 1, Int((maxX + 0.5).rounded(.up)))
            let y0 = max(0, Int((minY - 0.5).rounded(.down))), y1 = min(w.height - 1, Int((maxY + 0.5).rounded(.up)))
            guard x0 <= x1, y0 <= y1 else { continue }
            for y in y0...y1 {
                for x in x0...x1 {
                    var bits = hits[y * w.width + x]
                    for sy in 0..<k {
                        for sx in 0..<k {
                            let bit = UInt64(1) << UInt64(sy * k + sx)
                            guard bits & bit == 0 else { continue }
                            let p = g.location(x: Double(x) + (Double(sx) + 0.5) / Double(k) - 0.5,
                                               y: Double(y) + (Double(sy) + 0.5) / Double(k) - 0.5)
                            if ring.contains(lat: p.lat, lon: p.lon) { bits |= bit; heightSum[y * w.width + x] += ring.height }
                        }
                    }
                    hits[y * w.width + x] = bits
                }
            }
        }
        let n = Double(k * k)
        return (hits.map { Double($0.nonzeroBitCount) / n }, heightSum.map { $0 / n })
    }
}

/// What `GroundModel` changed in one import.
public struct GroundReport: Sendable, Equatable {
    public init() {}
    /// DEM posts near the map whose cell is at least `GroundModel.roofedShare` under buildings.
    public var postsRoofed = 0
    /// Of those, the posts the open-post fill lowered, their summed and largest drop (metres).
    public var postsLowered = 0
    public var loweredMetres = 0.0, maxLoweredMetres = 0.0

    mutating func add(_ o: GroundReport) {
        postsRoofed += o.postsRoofed; postsLowered += o.postsLowered
        loweredMetres += o.loweredMetres; maxLoweredMetres = max(maxLoweredMetres, o.maxLoweredMetres)
    }

    /// "ground: 105 DEM posts under buildings, 61 lowered by 4.2 m on average (max 12.0 m)".
    public var summary: String {
        String(printf: "ground: %d DEM post%@ ≥ %.0f %% under buildings, %d lowered by %.1f m on average (max %.1f m)",
               postsRoofed, postsRoofed == 1 ? "" : "s", GroundModel.roofedShare * 100, postsLowered,
               postsLowered > 0 ? loweredMetres / Double(postsLowered) : 0, maxLoweredMetres)
    }
}

/// The posts of a gridded layer around the map: their positions and heights (NaN where void).
public struct PostWindow: Sendable {
    public var georeference: GridGeoreference
    public var width: Int, height: Int
    /// Row-major heights in metres.
    public var values: [Float]
}

/// A layer whose posts near the map were replaced by `GroundModel`; elsewhere the original answers.
struct GroundLayer: DEMLayer {
    let original: any DEMLayer
    let ground: GeoGrid
    var bounds: BoundingBox { original.bounds }
    var resolutionMetres: Double { original.resolutionMetres }
    var cellSizeMetres: Double { original.cellSizeMetres }
    var verticalNoiseMetres: Double? { original.verticalNoiseMetres }

    func elevation(lat: Double, lon: Double) -> Double? {
        ground.elevation(lat: lat, lon: lon) ?? original.elevation(lat: lat, lon: lon)
    }
}

extension DEMLayer {
    /// The posts around `box` (plus `DEMReader.windowMargin`), or nil for a layer without posts.
    public func postWindow(covering box: BoundingBox) -> PostWindow? { nil }
}

extension SRTMTile {
    /// The tile's posts around `box`: samples on whole arc-seconds, row 0 on the north edge.
    public func postWindow(covering box: BoundingBox) -> PostWindow? {
        let step = 1 / Double(size - 1)
        let geo = GridGeoreference(lon0: Double(west), lat0: Double(south + 1), lonPerColumn: step, latPerRow: -step)
        guard let w = geo.window(covering: box, width: size, height: size, margin: DEMReader.windowMargin) else { return nil }
        var values: [Float] = []
        values.reserveCapacity(w.columns.count * w.rows.count)
        for r in w.rows { for c in w.columns { values.append(sample(row: r, column: c).map(Float.init) ?? .nan) } }
        return PostWindow(georeference: geo.shifted(x: w.columns.lowerBound, y: w.rows.lowerBound),
                          width: w.columns.count, height: w.rows.count, values: values)
    }
}

extension GeoGrid {
    /// The grid's posts around `box`.
    public func postWindow(covering box: BoundingBox) -> PostWindow? {
        guard let w = georeference.window(covering: box, width: width, height: height, margin: DEMReader.windowMargin) else { return nil }
        var values: [Float] = []
        values.reserveCapacity(w.columns.count * w.rows.count)
        for r in w.rows { for c in w.columns { values.append(heights[r * width + c]) } }
        return PostWindow(georeference: georeference.shifted(x: w.columns.lowerBound, y: w.rows.lowerBound),
                          width: w.columns.count, height: w.rows.count, values: values)
    }
}
