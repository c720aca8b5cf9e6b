import Foundation

/// The screens of the app. Plan, preview and ride screens add their cases here.
public enum ScreenID: String, Hashable, Sendable, CaseIterable {
    /// Browse the bundled map: pan, zoom, fit.
    case browse
}

/// What a key does. Screens add their actions here; `update` maps them to model changes.
public enum KeyAction: Hashable, Sendable {
    case quit
    case toggleHelp
    case closeOverlay
    case panLeft, panRight, panUp, panDown
    case zoomIn, zoomOut
    case fit
    case toggleLegend
}

/// One entry of the key table: which keys, what they do, on which screens, and how the key bar
/// and the help overlay describe them. The table is the single source for dispatch and help.
public struct KeyBinding: Hashable, Sendable {
    public var keys: [Key]
    /// Short text for the key bar, e.g. "pan"; empty keeps the binding out of the bar.
    public var barLabel: String
    /// Text for the help overlay.
    public var help: String
    public var action: KeyAction
    /// Screens where the binding works; empty means every screen.
    public var screens: Set<ScreenID>
    /// Custom key text (e.g. "+/-"); nil writes the keys joined with "/".
    public var keyText: String?

    public init(_ keys: [Key], _ action: KeyAction, bar: String = "", help: String, screens: Set<ScreenID> = [], keyText: String? = nil) {
        self.keys = keys; self.action = action; self.barLabel = bar; self.help = help
        self.screens = screens; self.keyText = keyText
    }

    /// True when the binding is active on `screen`.
    public func isEnabled(on screen: ScreenID) -> Bool { screens.isEmpty || screens.contains(screen) }

    /// The keys as text.
    public func keysLabel(_ glyphs: GlyphMode) -> String {
        if let t = keyText {
            if glyphs == .ascii, !t.unicodeScalars.allSatisfy(\.isASCII) {
                return t.replacingOccurrences(of: "←↑↓→", with: "arrows")
                    .unicodeScalars.filter(\.isASCII).map(String.init).joined()
            }
            return t
        }
        return keys.map { $0.label(glyphs) }.joined(separator: "/")
    }
}

/// A table of bindings with lookups.
public struct KeyMap: Sendable {
    public var bindings: [KeyBinding]
    public init(_ bindings: [KeyBinding]) { self.bindings = bindings }

    /// The action bound to `key` on `screen` (first match wins), or nil.
    public func action(for key: Key, on screen: ScreenID) -> KeyAction? {
        bindings.first { $0.isEnabled(on: screen) && $0.keys.contains(key) }?.action
    }

    /// Bindings active on `screen`, in table order.
    public func enabled(on screen: ScreenID) -> [KeyBinding] { bindings.filter { $0.isEnabled(on: screen) } }

    /// The app's default table.
    public static let standard = KeyMap([
        KeyBinding([.char("q")], .quit, bar: "quit", help: "Quit and restore the terminal"),
        KeyBinding([.char("?")], .toggleHelp, bar: "help", help: "Show or hide this help"),
        KeyBinding([.escape], .closeOverlay, help: "Close help or the open panel"),
        KeyBinding([.left, .char("h")], .panLeft, bar: "pan", help: "Pan west", screens: [.browse], keyText: "←↑↓→/hjkl"),
        KeyBinding([.right, .char("l")], .panRight, help: "Pan east", screens: [.browse]),
        KeyBinding([.up, .char("k")], .panUp, help: "Pan north", screens: [.browse]),
        KeyBinding([.down, .char("j")], .panDown, help: "Pan south", screens: [.browse]),
        KeyBinding([.char("+"), .char("=")], .zoomIn, bar: "zoom", help: "Zoom in", screens: [.browse], keyText: "+/-"),
        KeyBinding([.char("-"), .char("_")], .zoomOut, help: "Zoom out", screens: [.browse]),
        KeyBinding([.char("f")], .fit, bar: "fit", help: "Fit the whole map (or route) in view", screens: [.browse]),
        KeyBinding([.char("L")], .toggleLegend, bar: "legend", help: "Show or hide the legend", screens: [.browse]),
    ])
}
