/// A terminal size in cells.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = max(0, width); self.height = max(0, height) }
    public var description: String { "\(width)×\(height)" }
}

/// A rectangle of cells: `x`, `y` of the top-left corner, `width` columns, `height` rows.
public struct Rect: Hashable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = max(0, width); self.height = max(0, height)
    }

    public init(size: Size) { self.init(x: 0, y: 0, width: size.width, height: size.height) }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// The rectangle shrunk by `d` cells on every side.
    public func inset(by d: Int) -> Rect { Rect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d) }

    /// The common part of two rectangles (empty when they do not meet).
    public func intersection(_ o: Rect) -> Rect {
        let x0 = max(x, o.x), y0 = max(y, o.y)
        return Rect(x: x0, y: y0, width: min(maxX, o.maxX) - x0, height: min(maxY, o.maxY) - y0)
    }

    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }

    /// The top `n` rows and the rest.
    public func splitTop(_ n: Int) -> (top: Rect, rest: Rect) {
        let k = min(max(0, n), height)
        return (Rect(x: x, y: y, width: width, height: k), Rect(x: x, y: y + k, width: width, height: height - k))
    }

    /// The bottom `n` rows and the rest.
    public func splitBottom(_ n: Int) -> (rest: Rect, bottom: Rect) {
        let k = min(max(0, n), height)
        return (Rect(x: x, y: y, width: width, height: height - k), Rect(x: x, y: maxY - k, width: width, height: k))
    }

    /// The right `n` columns and the rest.
    public func splitRight(_ n: Int) -> (rest: Rect, right: Rect) {
        let k = min(max(0, n), width)
        return (Rect(x: x, y: y, width: width - k, height: height), Rect(x: maxX - k, y: y, width: k, height: height))
    }

    /// A `w`×`h` rectangle centred in this one (clamped to it).
    public func centered(width w: Int, height h: Int) -> Rect {
        let cw = min(w, width), ch = min(h, height)
        return Rect(x: x + (width - cw) / 2, y: y + (height - ch) / 2, width: cw, height: ch)
    }
}
