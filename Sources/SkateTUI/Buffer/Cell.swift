/// One terminal cell: a single grapheme and its style.
///
/// A double-width grapheme occupies its cell and the next one; the next one then holds the
/// empty glyph `""` (a continuation) which the backend never writes.
public struct Cell: Hashable, Sendable {
    /// One grapheme cluster, `" "` for blank, `""` for the right half of a wide grapheme.
    public var glyph: String
    public var fg: TermColor
    public var bg: TermColor
    public var attrs: CellAttributes

    public init(_ glyph: String = " ", fg: TermColor = .default, bg: TermColor = .default, attrs: CellAttributes = []) {
        self.glyph = glyph; self.fg = fg; self.bg = bg; self.attrs = attrs
    }

    public init(_ glyph: String, style: CellStyle) {
        self.init(glyph, fg: style.fg, bg: style.bg, attrs: style.attrs)
    }

    /// A blank cell in the terminal's default colours.
    public static let blank = Cell()

    /// The cell's style.
    public var style: CellStyle {
        get { CellStyle(fg: fg, bg: bg, attrs: attrs) }
        set { fg = newValue.fg; bg = newValue.bg; attrs = newValue.attrs }
    }

    /// True for the right half of a double-width grapheme.
    public var isContinuation: Bool { glyph.isEmpty }
}
