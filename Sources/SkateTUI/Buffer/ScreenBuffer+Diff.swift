/// One cell the backend must write: position and new content.
public struct CellChange: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var cell: Cell
    public init(x: Int, y: Int, cell: Cell) { self.x = x; self.y = y; self.cell = cell }
}

extension ScreenBuffer {
    /// The minimal list of cells to write to turn `old` into `new`, in row-major order.
    /// Continuation cells (right halves of wide graphemes) are never listed: writing the wide
    /// grapheme covers them. When the sizes differ every cell of `new` is listed (a full redraw).
    public static func diff(_ old: ScreenBuffer, _ new: ScreenBuffer) -> [CellChange] {
        guard old.width == new.width, old.height == new.height else { return new.allChanges() }
        var out: [CellChange] = []
        let w = new.width
        old.cells.withUnsafeBufferPointer { a in
            new.cells.withUnsafeBufferPointer { b in
                for i in 0..<b.count where a[i] != b[i] {
                    let c = b[i]
                    if c.isContinuation { continue }
                    out.append(CellChange(x: i % w, y: i / w, cell: c))
                }
            }
        }
        return out
    }

    /// Every cell as a change (first frame, or after a resize).
    public func allChanges() -> [CellChange] {
        var out: [CellChange] = []
        out.reserveCapacity(cells.count)
        for (i, c) in cells.enumerated() where !c.isContinuation {
            out.append(CellChange(x: i % width, y: i / width, cell: c))
        }
        return out
    }
}
