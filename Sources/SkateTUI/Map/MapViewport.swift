import FoundationEssentials
import Glibc
import SkateCore

/// What part of the world a map region shows: a centre, a scale in metres per dot, and the
/// region's size in cells. Dots are the canvas's 2×4-per-cell grid; since a terminal cell is
/// about twice as tall as wide, dots are square and one scale serves both axes.
public struct MapViewport: Hashable, Sendable {
    /// Fixed projection origin (the map's centre) so panning never shifts the projection.
    public let origin: Coordinate
    /// Centre of the view in metres east/north of `origin`.
    public var centerX: Double
    public var centerY: Double
    /// Metres per dot.
    public var metresPerDot: Double
    /// Size of the map region in cells.
    public var size: Size
    /// Which compass direction points up, degrees clockwise from north: 0 is north-up; the
    /// ride's heading-up view sets the rider's heading (the map turns under it).
    public var rotationDegrees: Double = 0
    /// Where the centre is drawn, as a fraction of the height from the top: 0.5 in the middle;
    /// heading-up puts the rider low (`RideScreen.headingUpAnchor`) to show more road ahead.
    public var anchorY: Double = 0.5

    /// True for the plain north-up view with the centre in the middle (the renderers' fast path).
    public var isNorthUpCentred: Bool { rotationDegrees == 0 && anchorY == 0.5 }

    /// Height of a terminal cell over its width (typical fonts are ~1:2).
    public static let cellAspect: Double = 2.0
    /// Closest zoom: a quarter metre per dot shows a 25 m wide street ~100 dots wide.
    public static let minMetresPerDot: Double = 0.25
    /// Farthest zoom: 200 m per dot shows a ~40 km wide region on 100 columns.
    public static let maxMetresPerDot: Double = 200
    /// Each `+`/`-` multiplies or divides the scale by this.
    public static let zoomStep: Double = 1.5
    /// Each pan key moves the view by this fraction of its width or height.
    public static let panFraction: Double = 0.25
    /// Blank space kept around a fitted box, as a fraction of the view.
    public static let fitMargin: Double = 0.05

    public init(origin: Coordinate, center: Coordinate? = nil, metresPerDot: Double, size: Size) {
        self.origin = origin
        let p = LocalProjection(origin: origin).project(center ?? origin)
        centerX = p.x; centerY = p.y
        self.metresPerDot = Self.clampScale(metresPerDot)
        self.size = size
    }

    var projection: LocalProjection { LocalProjection(origin: origin) }

    /// Height/width ratio of a dot: 1 for Braille with 1:2 cells.
    public static var dotAspect: Double {
        cellAspect * Double(BrailleCanvas.dotsPerCellX) / Double(BrailleCanvas.dotsPerCellY)
    }

    /// Width and height of the view in dots.
    public var dotWidth: Int { size.width * BrailleCanvas.dotsPerCellX }
    public var dotHeight: Int { size.height * BrailleCanvas.dotsPerCellY }

    /// Metres per dot vertically (equal to `metresPerDot` with 1:2 cells).
    public var metresPerDotY: Double { metresPerDot * Self.dotAspect }

    /// The view's centre as a coordinate.
    public var center: Coordinate { projection.unproject(x: centerX, y: centerY) }

    /// Dot position (fractional, y down) of a local-metre position.
    @inlinable
    public func dot(x: Double, y: Double) -> (x: Double, y: Double) {
        if rotationDegrees == 0 {
            // North-up: no trigonometry on the per-point path.
            return ((x - centerX) / metresPerDot + Double(dotWidth) / 2, Double(dotHeight) * anchorY - (y - centerY) / metresPerDotY)
        }
        let a = affine
        return (a.xe * x + a.xn * y + a.x0, a.ye * x + a.yn * y + a.y0)
    }

    /// Local metres (east, north) to dots as one affine map: dot x = xe·east + xn·north + x0,
    /// dot y = ye·east + yn·north + y0 (rotation, scale, centre and anchor folded together).
    public var affine: (xe: Double, xn: Double, x0: Double, ye: Double, yn: Double, y0: Double) {
        let h = rotationDegrees * .pi / 180
        let c = cos(h), s = sin(h)
        // Right of the screen u = east·cos h − north·sin h; up v = east·sin h + north·cos h.
        let xe = c / metresPerDot, xn = -s / metresPerDot
        let ye = -s / metresPerDotY, yn = -c / metresPerDotY
        return (xe, xn, Double(dotWidth) / 2 - xe * centerX - xn * centerY,
                ye, yn, Double(dotHeight) * anchorY - ye * centerX - yn * centerY)
    }

    /// Dot position of a coordinate.
    public func dot(_ c: Coordinate) -> (x: Double, y: Double) {
        let p = projection.project(c)
        return dot(x: p.x, y: p.y)
    }

    /// Cell holding a coordinate, or nil when outside the view.
    public func cell(_ c: Coordinate) -> (x: Int, y: Int)? {
        let d = dot(c)
        let cx = Int((d.x / Double(BrailleCanvas.dotsPerCellX)).rounded(.down))
        let cy = Int((d.y / Double(BrailleCanvas.dotsPerCellY)).rounded(.down))
        guard cx >= 0, cy >= 0, cx < size.width, cy < size.height else { return nil }
        return (cx, cy)
    }

    /// The coordinate at the centre of a cell.
    public func coordinate(cellX: Int, cellY: Int) -> Coordinate {
        coordinate(dotX: (Double(cellX) + 0.5) * Double(BrailleCanvas.dotsPerCellX),
                   dotY: (Double(cellY) + 0.5) * Double(BrailleCanvas.dotsPerCellY))
    }

    /// The coordinate at a dot position.
    public func coordinate(dotX: Double, dotY: Double) -> Coordinate {
        let u = (dotX - Double(dotWidth) / 2) * metresPerDot
        let v = (Double(dotHeight) * anchorY - dotY) * metresPerDotY
        let h = rotationDegrees * .pi / 180
        let c = cos(h), s = sin(h)
        return projection.unproject(x: centerX + u * c + v * s, y: centerY - u * s + v * c)
    }

    /// The box the view shows (around all four corners when the map is turned).
    public var visibleBox: BoundingBox {
        var b = BoundingBox.empty
        let w = Double(dotWidth), h = Double(dotHeight)
        for (x, y) in [(0.0, 0.0), (w, 0), (0, h), (w, h)] {
            let c = coordinate(dotX: x, dotY: y)
            b.extend(lat: c.lat, lon: c.lon)
        }
        return b
    }

    /// Width of the view in metres.
    public var widthMetres: Double { Double(dotWidth) * metresPerDot }

    static func clampScale(_ s: Double) -> Double {
        guard s.isFinite, s > 0 else { return maxMetresPerDot }
        return min(maxMetresPerDot, max(minMetresPerDot, s))
    }

    // MARK: Moves

    /// Zooms in by `zoomStep` (smaller metres per dot), keeping the centre.
    public mutating func zoomIn() { metresPerDot = Self.clampScale(metresPerDot / Self.zoomStep) }
    /// Zooms out by `zoomStep`.
    public mutating func zoomOut() { metresPerDot = Self.clampScale(metresPerDot * Self.zoomStep) }

    /// Pans by a fraction of the view: `dx` > 0 east, `dy` > 0 north.
    public mutating func pan(dx: Double, dy: Double) {
        centerX += dx * Double(dotWidth) * metresPerDot
        centerY += dy * Double(dotHeight) * metresPerDotY
    }

    /// Centres on a coordinate.
    public mutating func center(on c: Coordinate) {
        let p = projection.project(c)
        centerX = p.x; centerY = p.y
    }

    /// Centres on `box` and picks the closest scale that shows all of it with `fitMargin` around.
    /// Fits `box` into the rows above the bottom `rows` (where the legend sits), so nothing of
    /// the box — the route's ends above all — hides under it.
    public mutating func fit(_ box: BoundingBox, reservingBottomRows rows: Int) {
        let rows = max(0, min(rows, size.height - 1))
        guard rows > 0 else { fit(box); return }
        let full = size
        size = Size(width: full.width, height: full.height - rows)
        fit(box)
        size = full
        // The box was centred in the upper rows: move the centre down by half the reserved rows.
        centerY -= Double(rows * BrailleCanvas.dotsPerCellY) / 2 * metresPerDotY
    }

    public mutating func fit(_ box: BoundingBox) {
        guard !box.isEmpty else { return }
        let proj = projection
        let a = proj.project(lat: box.minLat, lon: box.minLon), b = proj.project(lat: box.maxLat, lon: box.maxLon)
        centerX = (a.x + b.x) / 2; centerY = (a.y + b.y) / 2
        let usable = 1 - 2 * Self.fitMargin
        let w = max(1, Double(dotWidth) * usable), h = max(1, Double(dotHeight) * usable)
        let needX = (b.x - a.x) / w
        let needY = (b.y - a.y) / (h * Self.dotAspect)
        metresPerDot = Self.clampScale(max(needX, needY, Self.minMetresPerDot))
    }
}
