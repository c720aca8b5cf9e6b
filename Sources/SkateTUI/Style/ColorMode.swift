/// How many colours the terminal can show.
public enum ColorMode: String, Sendable, CaseIterable {
    /// No colour at all (`NO_COLOR`, or a dumb terminal): attributes and glyphs only.
    case none
    /// The 8 ANSI colours.
    case ansi8
    /// The xterm 256-colour palette.
    case ansi256
    /// 24-bit colour.
    case truecolor

    /// Detects the mode from the environment: `NO_COLOR` (any non-empty value) → none;
    /// `COLORTERM=truecolor|24bit` → truecolour; a `TERM` containing `256color` → 256;
    /// `TERM` empty or `dumb` → none; else 8 colours.
    public static func detect(environment env: [String: String]) -> ColorMode {
        if let nc = env["NO_COLOR"], !nc.isEmpty { return .none }
        let colorterm = (env["COLORTERM"] ?? "").lowercased()
        if colorterm == "truecolor" || colorterm == "24bit" { return .truecolor }
        let term = (env["TERM"] ?? "").lowercased()
        if term.contains("256color") { return .ansi256 }
        if term.isEmpty || term == "dumb" { return .none }
        return .ansi8
    }

    /// True when colour alone cannot tell the roughness classes apart, so textures must.
    public var needsTextures: Bool { self == .none || self == .ansi8 }
}
