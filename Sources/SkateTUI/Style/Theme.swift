import SkateCore

/// Palette plus glyph mode: everything that decides how a meaning looks on this terminal.
///
/// Roughness without colour: when colours cannot separate the classes (`NO_COLOR`, 8 colours)
/// each class gets its own texture — butter a thin line, okay a double-width line (`=` in ASCII), meh `~`
/// (bumpy), crusty `#` in bold (heavy). Braking zones are dashes shown in reverse video, caution
/// zones dashes underlined, so they read on any terminal.
public struct Theme: Sendable {
    public let palette: Palette
    public let glyphs: GlyphMode

    public init(colorMode: ColorMode, glyphMode: GlyphMode, scheme: PaletteScheme = .standard) {
        palette = Palette(mode: colorMode, scheme: scheme)
        glyphs = glyphMode
    }

    /// The same terminal with another colour scheme.
    public func with(scheme: PaletteScheme) -> Theme { Theme(colorMode: colorMode, glyphMode: glyphs, scheme: scheme) }

    public var scheme: PaletteScheme { palette.scheme }

    /// Detects colours and glyphs from the environment.
    public static func detect(environment: [String: String]) -> Theme {
        Theme(colorMode: .detect(environment: environment), glyphMode: .detect(environment: environment))
    }

    public var colorMode: ColorMode { palette.mode }

    public func style(_ role: PaletteRole) -> CellStyle { palette.style(role) }

    // MARK: Map inks

    /// Canvas layer of context streets.
    public static let contextLayer: UInt8 = 1
    /// Canvas layer of the skateability layer's steep-street dashes (over the streets' class
    /// colours, under any route).
    public static let steepStreetLayer: UInt8 = 2
    /// Canvas layer of dimmed alternative routes (over context streets, under the route).
    public static let alternativeLayer: UInt8 = 3
    /// Canvas layer of the route (over context streets and alternatives).
    public static let routeLayer: UInt8 = 4
    /// Canvas layer of braking/caution dashes (over the route's roughness colour).
    public static let brakingLayer: UInt8 = 5
    /// Canvas layer of the part already ridden: grey over everything, so what is left stands out.
    public static let riddenLayer: UInt8 = 6

    /// Dash pattern of braking zones in dots: 4 on, 8 off (two cells lit, four in the route's
    /// class colour), so the surface class stays readable under a braking stretch.
    public static let brakingDash = (on: 4, off: 8)
    /// Dash pattern of caution zones in dots: shorter dashes than braking.
    public static let cautionDash = (on: 2, off: 10)

    /// Width of emphasised lines in dots: 2 in Braille; 1 in ASCII, where a second dot would spill
    /// into the next cell and double the glyph.
    var thickPen: Int { glyphs == .ascii ? 1 : 2 }

    /// Context streets: dim and quiet.
    public var contextInk: Ink { Ink(style: style(.context), layer: Self.contextLayer, glyph: .sparse) }

    /// Context streets under a route: dimmer still, so the route is the brightest thing on the
    /// map (issue 34 item 3).
    public var quietContextInk: Ink { Ink(style: style(.context).adding(.dim), layer: Self.contextLayer, glyph: .sparse) }

    /// Major roads at wide zooms: a step brighter than other streets, so the web has a hierarchy.
    public var majorRoadInk: Ink {
        Ink(style: colorMode == .none ? .plain : style(.hudLabel), layer: Self.contextLayer, glyph: .sparse)
    }

    /// The route pen of a roughness class: two dots wide and bold in colour, so it is thicker
    /// and brighter than any street.
    public func routeInk(_ c: RoughnessClass) -> Ink {
        let s = style(c.role)
        guard colorMode.needsTextures else { return Ink(style: s.adding(.bold), layer: Self.routeLayer, thickness: thickPen) }
        switch c {
        // Bold throughout: brighter than the dim street web on any terminal.
        case .butter: return Ink(style: s.adding(.bold), layer: Self.routeLayer, glyph: .braille, thickness: 1)
        case .okay:
            // ASCII cannot draw a thicker line: a double line glyph says "a bit rougher" instead.
            return Ink(style: s.adding(.bold), layer: Self.routeLayer, glyph: glyphs == .ascii ? .fixed("=") : .braille, thickness: thickPen)
        case .meh: return Ink(style: s.adding(.bold), layer: Self.routeLayer, glyph: .fixed("~"))
        case .crusty: return Ink(style: s.adding(.bold), layer: Self.routeLayer, glyph: .fixed("#"))
        }
    }

    /// A street's pen on the skateability layer (`SkateLayer`): its class colour, one dot wide so
    /// a route stays thicker; the weight says how the class is known (measured or rated: bold,
    /// tags: plain, guessed: dim). Without colours the class is a texture as on the route
    /// (butter a thin line, okay a double line or `=`, meh `~`, crusty `#`).
    public func streetInk(_ c: RoughnessClass, _ confidence: SkateConfidence) -> Ink {
        var s = style(c.role)
        switch confidence {
        // High contrast is bold throughout: underline keeps "measured" apart there.
        case .solid: s = s.adding(scheme == .highContrast ? [.bold, .underline] : .bold)
        case .tagged: break
        case .guessed: s = s.adding(.dim)
        }
        guard colorMode.needsTextures else { return Ink(style: s, layer: Self.contextLayer, glyph: .braille, thickness: 1) }
        switch c {
        case .butter: return Ink(style: s, layer: Self.contextLayer, glyph: .braille, thickness: 1)
        case .okay: return Ink(style: s, layer: Self.contextLayer, glyph: glyphs == .ascii ? .fixed("=") : .braille, thickness: thickPen)
        case .meh: return Ink(style: s, layer: Self.contextLayer, glyph: .fixed("~"))
        case .crusty: return Ink(style: s, layer: Self.contextLayer, glyph: .fixed("#"))
        }
    }

    /// Dash pattern of steep streets on the skateability layer in dots: the braking dash.
    public static let steepStreetDash = brakingDash

    /// The pen of a steep street's dashes on the skateability layer: the braking colour (reverse
    /// without colours), so it reads as the plans' braking zones do.
    public var steepStreetInk: Ink {
        Ink(style: style(.braking), layer: Self.steepStreetLayer, glyph: .braille, thickness: 1)
    }

    /// The pen of an alternative route: its class colour dimmed, thin (the chosen route stays brighter and thicker).
    public func alternativeInk(_ c: RoughnessClass) -> Ink {
        let s = colorMode == .none ? CellStyle(attrs: .dim) : style(c.role).adding(.dim)
        return Ink(style: s, layer: Self.alternativeLayer, glyph: .braille, thickness: 1)
    }

    /// The pen of the part of the route already ridden: grey like secondary text.
    public var riddenInk: Ink { Ink(style: style(.textDim), layer: Self.riddenLayer, glyph: .braille, thickness: thickPen) }

    /// The dash pen and pattern of a braking level, or nil for `.none`.
    public func brakingInk(_ level: BrakingLevel) -> (ink: Ink, dash: (on: Int, off: Int))? {
        switch level {
        case .none: return nil
        case .caution: return (Ink(style: style(.caution), layer: Self.brakingLayer, thickness: thickPen), Self.cautionDash)
        case .braking: return (Ink(style: style(.braking), layer: Self.brakingLayer, thickness: thickPen), Self.brakingDash)
        }
    }

    // MARK: Markers

    public var startGlyph: String { "A" }
    public var endGlyph: String { "B" }
    public var hazardGlyph: String { "!" }
    public var spotGlyph: String { "*" }

    /// A two-column sample of a pen for the legend.
    public func sample(_ ink: Ink, dashed: Bool = false) -> String {
        let line: String
        switch ink.glyph {
        case .fixed(let g): line = g + g + g
        case .braille, .sparse:
            if glyphs == .ascii { line = ink.glyph == .sparse ? "..." : "---" }
            else { line = ink.thickness > 1 ? "⠶⠶⠶" : "⠒⠒⠒" }
        }
        if dashed { return String(line.prefix(1)) + " " + String(line.prefix(1)) }
        return line
    }
}
