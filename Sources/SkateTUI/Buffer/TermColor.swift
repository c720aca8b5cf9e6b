/// A terminal colour as the screen buffer stores it; the backend lowers it to what the terminal
/// supports (truecolour → nearest of the 256-colour palette → nearest of the 8 ANSI colours).
public enum TermColor: Hashable, Sendable {
    /// The terminal's own foreground or background (ncurses `-1` after `use_default_colors`).
    case `default`
    /// One of the 8 ANSI colours, 0 black … 7 white.
    case ansi(UInt8)
    /// An index into the xterm 256-colour palette.
    case indexed(UInt8)
    /// A 24-bit colour.
    case rgb(UInt8, UInt8, UInt8)

    /// The 8 ANSI colour indices by name.
    public static let black = TermColor.ansi(0), red = TermColor.ansi(1), green = TermColor.ansi(2),
                      yellow = TermColor.ansi(3), blue = TermColor.ansi(4), magenta = TermColor.ansi(5),
                      cyan = TermColor.ansi(6), white = TermColor.ansi(7)

    /// The levels of the xterm 6×6×6 colour cube (indices 16…231).
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The colour as RGB (xterm's palette for indices), or nil for `.default`.
    public var rgbValue: (r: Int, g: Int, b: Int)? {
        switch self {
        case .default: return nil
        case .rgb(let r, let g, let b): return (Int(r), Int(g), Int(b))
        case .ansi(let i): return Self.xterm16[Int(i & 7)]
        case .indexed(let i):
            let n = Int(i)
            if n < 16 { return Self.xterm16[n] }
            if n < 232 {
                let k = n - 16
                return (Self.cubeLevels[k / 36], Self.cubeLevels[(k / 6) % 6], Self.cubeLevels[k % 6])
            }
            let v = 8 + (n - 232) * 10
            return (v, v, v)
        }
    }

    /// xterm's default first 16 colours.
    static let xterm16: [(r: Int, g: Int, b: Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// The nearest xterm 256-colour index (−1 for `.default`), searching the colour cube and the grey ramp.
    public var nearest256: Int {
        switch self {
        case .default: return -1
        case .ansi(let i): return Int(i & 7)
        case .indexed(let i): return Int(i)
        case .rgb(let r, let g, let b):
            func cubeIndex(_ v: Int) -> Int {
                var best = 0
                for k in 1..<6 where abs(Self.cubeLevels[k] - v) < abs(Self.cubeLevels[best] - v) { best = k }
                return best
            }
            let (ri, gi, bi) = (cubeIndex(Int(r)), cubeIndex(Int(g)), cubeIndex(Int(b)))
            let cube = 16 + 36 * ri + 6 * gi + bi
            let avg = (Int(r) + Int(g) + Int(b)) / 3
            let greyStep = min(23, max(0, (avg - 3) / 10))
            let grey = 232 + greyStep
            return Self.distance2(self, .indexed(UInt8(cube))) <= Self.distance2(self, .indexed(UInt8(grey))) ? cube : grey
        }
    }

    /// The nearest of the 8 ANSI colours (−1 for `.default`).
    public var nearest8: Int {
        switch self {
        case .default: return -1
        case .ansi(let i): return Int(i & 7)
        case .indexed(let i) where i < 16: return Int(i & 7)
        default:
            var best = 0, bestD = Int.max
            for k in 0..<8 {
                let d = Self.distance2(self, .ansi(UInt8(k)))
                if d < bestD { bestD = d; best = k }
            }
            return best
        }
    }

    static func distance2(_ a: TermColor, _ b: TermColor) -> Int {
        guard let x = a.rgbValue, let y = b.rgbValue else { return Int.max }
        let dr = x.r - y.r, dg = x.g - y.g, db = x.b - y.b
        return dr * dr + dg * dg + db * db
    }
}

/// Text attributes of a cell.
public struct CellAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bold = CellAttributes(rawValue: 1 << 0)
    public static let dim = CellAttributes(rawValue: 1 << 1)
    public static let reverse = CellAttributes(rawValue: 1 << 2)
    public static let underline = CellAttributes(rawValue: 1 << 3)
}

/// Foreground, background and attributes applied together.
public struct CellStyle: Hashable, Sendable {
    public var fg: TermColor
    public var bg: TermColor
    public var attrs: CellAttributes

    public init(fg: TermColor = .default, bg: TermColor = .default, attrs: CellAttributes = []) {
        self.fg = fg; self.bg = bg; self.attrs = attrs
    }

    /// The terminal's default colours, no attributes.
    public static let plain = CellStyle()

    /// This style with extra attributes.
    public func adding(_ a: CellAttributes) -> CellStyle { var s = self; s.attrs.formUnion(a); return s }
}
