/// What a piece of the screen means; the palette turns it into colours for the terminal's mode.
public enum PaletteRole: String, Sendable, CaseIterable {
    // Map
    case context, butter, okay, meh, crusty, braking, caution, hazard, start, end, spot, rider
    // Chrome
    case text, textDim, title, hudLabel, hudValue, border
    case keyBarKey, keyBarText
    case bannerInfo, bannerWarn, bannerHazard
    case toastInfo, toastError, recording
}

/// Colours per role for one `ColorMode`. In `.none` every role is the default colours plus
/// attributes, so meaning must also come from glyphs (see `Theme`).
public struct Palette: Sendable {
    public let mode: ColorMode
    public let scheme: PaletteScheme

    public init(mode: ColorMode, scheme: PaletteScheme = .standard) { self.mode = mode; self.scheme = scheme }

    /// A colour given three ways: 24-bit, nearest xterm-256 index, and an ANSI-8 fallback.
    struct Tone {
        let rgb: (UInt8, UInt8, UInt8)
        let idx: UInt8
        let ansi: UInt8
    }

    // The tones. Indices were picked as the nearest xterm-256 entries to the RGB values.
    /// Light cream: butter-smooth asphalt.
    static let cream = Tone(rgb: (255, 240, 200), idx: 230, ansi: 7)
    /// Green: okay.
    static let green = Tone(rgb: (95, 215, 95), idx: 77, ansi: 2)
    /// Amber: meh.
    static let amber = Tone(rgb: (255, 175, 0), idx: 214, ansi: 3)
    /// Dark red-brown: crusty.
    static let rust = Tone(rgb: (175, 65, 40), idx: 130, ansi: 1)
    /// Warning orange: banner background of braking cues (text on it is black).
    static let orange = Tone(rgb: (255, 120, 0), idx: 208, ansi: 3)
    /// Magenta: braking dashes on the map. A hue no roughness class uses (meh is amber, crusty
    /// rust), so a braking stretch never reads as a rough one.
    static let magenta = Tone(rgb: (255, 0, 175), idx: 199, ansi: 5)
    /// Cyan: caution dashes, apart from the amber/yellow of meh.
    static let cyan = Tone(rgb: (0, 215, 255), idx: 45, ansi: 6)
    /// Signal red: hazards.
    static let red = Tone(rgb: (255, 60, 60), idx: 203, ansi: 1)
    /// Dim grey: context streets and secondary text.
    static let grey = Tone(rgb: (108, 108, 108), idx: 242, ansi: 7)
    /// Mid grey for labels.
    static let silver = Tone(rgb: (168, 168, 168), idx: 248, ansi: 7)
    /// Start marker.
    static let mint = Tone(rgb: (0, 215, 135), idx: 42, ansi: 2)
    /// End marker.
    static let sky = Tone(rgb: (95, 175, 255), idx: 75, ansi: 6)
    /// Spots (skateparks, plazas).
    static let violet = Tone(rgb: (175, 135, 255), idx: 141, ansi: 5)
    /// Bright white: the rider and values.
    static let white = Tone(rgb: (255, 255, 255), idx: 231, ansi: 7)
    /// Banner backgrounds.
    static let navy = Tone(rgb: (0, 55, 95), idx: 24, ansi: 4)

    func color(_ t: Tone) -> TermColor {
        switch mode {
        case .none: return .default
        case .ansi8: return .ansi(t.ansi)
        case .ansi256: return .indexed(t.idx)
        case .truecolor: return .rgb(t.rgb.0, t.rgb.1, t.rgb.2)
        }
    }

    /// The style of a role in this palette's mode.
    public func style(_ role: PaletteRole) -> CellStyle {
        let mono = mode == .none
        let hc = scheme == .highContrast
        let tones = scheme.tones
        func fg(_ t: Tone, _ a: CellAttributes = []) -> CellStyle { CellStyle(fg: color(t), attrs: hc ? a.union(.bold) : a) }
        switch role {
        case .context: return mode == .ansi8 || mono ? CellStyle(attrs: .dim) : fg(Self.grey)
        case .butter: return fg(tones.butter, mode == .ansi8 ? [.bold] : [])
        case .okay: return fg(tones.okay)
        case .meh: return fg(tones.meh)
        case .crusty: return fg(tones.crusty, [.bold])
        case .braking: return fg(tones.braking, mode.needsTextures ? [.bold, .reverse] : [.bold])
        case .caution: return fg(tones.caution, mode.needsTextures ? [.underline] : [])
        case .hazard: return fg(Self.red, [.bold, .reverse])
        case .start: return fg(Self.mint, [.bold, .reverse])
        case .end: return fg(Self.sky, [.bold, .reverse])
        case .spot: return fg(Self.violet, [.bold])
        // Without colour, start/end/hazards are reverse too: the rider adds underline (and the map brackets it).
        case .rider: return mono ? CellStyle(attrs: [.bold, .reverse, .underline]) : fg(Self.white, [.bold, .reverse])
        case .text: return .plain
        case .textDim: return mono ? CellStyle(attrs: .dim) : fg(Self.grey)
        case .title: return CellStyle(attrs: [.bold])
        case .hudLabel: return mono ? CellStyle(attrs: .dim) : fg(Self.silver)
        case .hudValue: return CellStyle(attrs: .bold)
        case .border: return mono ? CellStyle(attrs: .dim) : fg(Self.grey)
        case .keyBarKey: return CellStyle(attrs: [.reverse, .bold])
        case .keyBarText: return mono ? .plain : fg(Self.silver)
        case .bannerInfo: return mono ? CellStyle(attrs: [.bold, .reverse]) : CellStyle(fg: color(Self.white), bg: color(Self.navy), attrs: .bold)
        case .bannerWarn: return mono ? CellStyle(attrs: [.bold, .reverse]) : CellStyle(fg: color(Self.black), bg: color(Self.orange), attrs: .bold)
        case .bannerHazard: return mono ? CellStyle(attrs: [.bold, .reverse, .underline]) : CellStyle(fg: color(Self.white), bg: color(Self.red), attrs: .bold)
        case .toastInfo: return mono ? CellStyle(attrs: .reverse) : CellStyle(fg: color(Self.black), bg: color(Self.silver))
        case .toastError: return mono ? CellStyle(attrs: [.reverse, .bold]) : CellStyle(fg: color(Self.white), bg: color(Self.red), attrs: .bold)
        case .recording: return fg(Self.red, [.bold])
        }
    }

    /// Black, for text on light banners.
    static let black = Tone(rgb: (0, 0, 0), idx: 16, ansi: 0)
}

import SkateCore

extension RoughnessClass {
    /// The palette role drawing this class.
    public var role: PaletteRole {
        switch self {
        case .butter: return .butter
        case .okay: return .okay
        case .meh: return .meh
        case .crusty: return .crusty
        }
    }
}
