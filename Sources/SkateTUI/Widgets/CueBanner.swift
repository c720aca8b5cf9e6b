import SkateRide
import SkateCore

/// A one-line announcement across the top of the map (turns, braking zones, hazards ahead).
public struct CueBanner: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable { case info, braking, hazard }
    public var text: String
    public var kind: Kind
    /// The plan step of the announced maneuver (turn cues); the banner only stays while that
    /// step is the HUD's NEXT.
    public var step: Int?
    /// Route metres of what is announced; the distance in the text counts down to it.
    public var at: Double?
    /// The distance phrase in `text` as last written ("in 40 m").
    public var phrase: String?
    public init(text: String, kind: Kind = .info, step: Int? = nil, at: Double? = nil, phrase: String? = nil) {
        self.text = text; self.kind = kind; self.step = step; self.at = at; self.phrase = phrase
    }

    /// A passed place stays announced up to this many metres behind the rider (the cue
    /// engine's own tolerance for passed maneuvers).
    public static let passedTolerance: Double = CueEngine.passedTolerance

    /// The banner at `along` route metres, with `nextStep` the maneuver the HUD shows as NEXT:
    /// the distance re-written live; nil once the place is passed, or when a turn banner is
    /// about another maneuver than NEXT (superseded), so banner and HUD never disagree.
    public func live(along: Double, nextStep: Int?) -> CueBanner? {
        guard let at else { return self }
        let d = at - along
        if d < -Self.passedTolerance { return nil }
        if let s = step, s != nextStep { return nil }
        var b = self
        if let p = phrase, let r = b.text.firstRange(of: " " + p) {
            let now = CueEngine.distanceText(max(0, d), in: UnitSystem.active)
            b.text.replaceSubrange(r, with: " " + now)
            b.phrase = now
        }
        return b
    }
}

enum CueBannerWidget {
    /// Draws the banner centred on the first row of `area`, the row filled in the banner colour.
    public static func render(_ banner: CueBanner, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        guard area.height >= 1, area.width >= 1 else { return }
        let role: PaletteRole = switch banner.kind {
        case .info: .bannerInfo
        case .braking: .bannerWarn
        case .hazard: .bannerHazard
        }
        let style = theme.style(role)
        let row = Rect(x: area.x, y: area.y, width: area.width, height: 1)
        buffer.fill(row, with: Cell(" ", style: style))
        let prefix = banner.kind == .info ? "" : "! "
        let text = DisplayWidth.clip(prefix + banner.text, maxColumns: area.width - 2, ellipsis: theme.glyphs.ellipsis)
        let w = DisplayWidth.of(text)
        buffer.write(text, x: area.x + (area.width - w) / 2, y: area.y, style: style, maxWidth: area.width)
    }
}

/// A short confirmation or error shown for a few seconds.
struct Toast: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable { case info, error }
    public var text: String
    public var kind: Kind
    /// Seconds left before it disappears.
    public var remaining: Double
    /// How long a toast stays up by default: long enough to read two short lines.
    public static let defaultDuration: Double = 3
    public init(text: String, kind: Kind = .info, remaining: Double = Toast.defaultDuration) {
        self.text = text; self.kind = kind; self.remaining = remaining
    }
}

enum ToastWidget {
    /// Draws the toast centred near the bottom of `area` (one text row, padded by a space).
    public static func render(_ toast: Toast, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        guard area.width >= 4, area.height >= 1 else { return }
        let style = theme.style(toast.kind == .error ? .toastError : .toastInfo)
        let text = " " + DisplayWidth.clip(toast.text, maxColumns: area.width - 2, ellipsis: theme.glyphs.ellipsis) + " "
        let w = DisplayWidth.of(text)
        let x = area.x + (area.width - w) / 2
        let y = area.maxY - 1
        buffer.fill(Rect(x: x, y: y, width: w, height: 1), with: Cell(" ", style: style))
        buffer.write(text, x: x, y: y, style: style, maxWidth: w)
    }
}
