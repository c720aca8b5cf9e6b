/// Which colours draw the four roughness classes and the braking/caution dashes.
public enum PaletteScheme: String, Sendable, CaseIterable {
    /// Cream, green, amber, rust; magenta braking, cyan caution.
    case standard
    /// Okabe & Ito's colour-universal-design palette (Okabe M., Ito K., "Color Universal Design
    /// (CUD): how to make figures and presentations that are friendly to colorblind people",
    /// 2002/2008): sky blue, bluish green, yellow, vermillion; reddish purple braking, orange
    /// caution. Its eight colours stay apart under protan, deutan and tritan vision.
    case colorBlind = "colorblind"
    /// Pure, saturated colours at full brightness for glare and low-contrast screens.
    case highContrast = "high-contrast"

    /// The next scheme (the palette key cycles through them).
    public var next: PaletteScheme {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// What `--palette` accepts.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// Tones for butter, okay, meh, crusty, braking, caution.
    var tones: (butter: Palette.Tone, okay: Palette.Tone, meh: Palette.Tone, crusty: Palette.Tone, braking: Palette.Tone, caution: Palette.Tone) {
        switch self {
        case .standard:
            return (Palette.cream, Palette.green, Palette.amber, Palette.rust, Palette.magenta, Palette.cyan)
        case .colorBlind:
            // Okabe–Ito RGB values; xterm-256 indices are the nearest entries.
            return (Palette.Tone(rgb: (86, 180, 233), idx: 74, ansi: 6),    // sky blue
                    Palette.Tone(rgb: (0, 158, 115), idx: 36, ansi: 2),     // bluish green
                    Palette.Tone(rgb: (240, 228, 66), idx: 221, ansi: 3),   // yellow
                    Palette.Tone(rgb: (213, 94, 0), idx: 166, ansi: 1),     // vermillion
                    Palette.Tone(rgb: (204, 121, 167), idx: 175, ansi: 5),  // reddish purple
                    Palette.Tone(rgb: (230, 159, 0), idx: 214, ansi: 3))    // orange
        case .highContrast:
            return (Palette.Tone(rgb: (255, 255, 255), idx: 231, ansi: 7),
                    Palette.Tone(rgb: (0, 255, 0), idx: 46, ansi: 2),
                    Palette.Tone(rgb: (255, 255, 0), idx: 226, ansi: 3),
                    Palette.Tone(rgb: (255, 0, 0), idx: 196, ansi: 1),
                    Palette.Tone(rgb: (255, 0, 255), idx: 201, ansi: 5),
                    Palette.Tone(rgb: (0, 255, 255), idx: 51, ansi: 6))
        }
    }
}
