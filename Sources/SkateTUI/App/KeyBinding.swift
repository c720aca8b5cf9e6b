import FoundationEssentials
import Glibc

/// Where keys are looked up: a screen, or a mode of one (typing in a plan field). Bindings are
/// per context, so the same key can mean different things on different screens (`r` rides on the
/// preview, rates the surface while riding).
public enum ScreenID: String, Hashable, Sendable, CaseIterable {
    /// Browse the bundled map: pan, zoom, fit.
    case browse
    /// Plan screen, commands on the map and the route list (not typing).
    case plan
    /// Plan screen while typing in the origin or destination field: letters are text.
    case planInput
    /// Route preview: map fitted to the route, steps, elevation.
    case preview
    /// Live (simulated or replayed) ride.
    case ride
    /// The list of recorded rides to replay.
    case ridePicker
    /// The ride screen once the ride ended: the arrival panel.
    case arrival
    /// The spots list over the plan or preview screen.
    case spotList
    /// Typing the name of a route to save (letters are text).
    case routeName
}

/// What a key does. `update` maps actions to model changes.
public enum KeyAction: Hashable, Sendable {
    case quit
    case toggleHelp
    case closeOverlay
    case panLeft, panRight, panUp, panDown
    case zoomIn, zoomOut
    case fit
    case toggleLegend
    /// Next colour scheme (standard → colour-blind safe → high contrast).
    case cyclePalette
    // Plan
    case nextField, previousField
    case editField
    case selectUp, selectDown
    case confirm
    case cycleMode
    case setOriginAtCursor, setDestinationAtCursor
    case swapEnds
    case clearField
    // Preview
    case startRide
    case openRidePicker
    case stepsUp, stepsDown
    /// Highlight the next/previous step (Enter zooms the map to it).
    case stepNext, stepPrevious
    /// Select the next of the routes planned (the others are drawn dimmed).
    case nextRoute
    case back
    // Ride
    case togglePause, faster, slower, singleStep
    case toggleBell
    /// North-up or heading-up ride map.
    case toggleHeadingUp
    // Reports
    case hazardPrefix
    case ratePrefix
    case undoReport
    // The rider's own (issue 17)
    /// Open the spots list (nearest first; Enter plans there).
    case openSpots
    /// Save the previewed route under a name.
    case saveRoute
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
                return t.replacing("←↑↓→", with: "arrows").replacing("↑↓", with: "Up/Dn")
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

    /// Screens with a map you can move around on.
    static let mapScreens: Set<ScreenID> = [.browse, .plan, .preview]
    /// Screens where quitting with a plain `q` is safe (not typing).
    static let commandScreens: Set<ScreenID> = [.browse, .plan, .preview, .ride, .ridePicker, .arrival, .spotList]

    /// The app's default table. `h` files a hazard on every map screen, so panning is on the arrows.
    public static let standard = KeyMap([
        // Typing in a plan field: only non-printing keys are bound; letters go into the field.
        KeyBinding([.enter], .confirm, bar: "pick/plan", help: "Pick the highlighted place; plan when both ends are set", screens: [.planInput]),
        KeyBinding([.up], .selectUp, bar: "choose", help: "Previous search result", screens: [.planInput, .ridePicker, .spotList], keyText: "↑↓"),
        KeyBinding([.down], .selectDown, help: "Next search result", screens: [.planInput, .ridePicker, .spotList]),
        KeyBinding([.tab], .nextField, bar: "next field", help: "Switch between origin and destination", screens: [.planInput, .plan]),
        KeyBinding([.backTab], .previousField, help: "Previous field", screens: [.planInput, .plan]),
        KeyBinding([.ctrl("u")], .clearField, help: "Clear the field", screens: [.planInput]),
        KeyBinding([.escape], .closeOverlay, bar: "map", help: "Leave the field: map and route keys", screens: [.planInput]),
        KeyBinding([.ctrl("t")], .cycleMode, help: "Next ride mode (replans when both ends are set)", screens: [.planInput]),

        KeyBinding([.char("q")], .quit, bar: "quit", help: "Quit and restore the terminal", screens: commandScreens),
        KeyBinding([.char("?")], .toggleHelp, bar: "help", help: "Show or hide this help", screens: commandScreens),
        KeyBinding([.ctrl("c")], .quit, help: "Quit", screens: [.planInput]),

        // Plan (command mode)
        KeyBinding([.enter], .confirm, bar: "plan/preview", help: "Plan the route, or preview the chosen one", screens: [.plan]),
        KeyBinding([.up], .selectUp, bar: "route", help: "Previous route (pans the map when there are none)", screens: [.plan], keyText: "↑↓"),
        KeyBinding([.down], .selectDown, help: "Next route (pans the map when there are none)", screens: [.plan]),
        KeyBinding([.char("/"), .char("i")], .editField, bar: "type", help: "Type in the origin field", screens: [.plan], keyText: "/ i"),
        KeyBinding([.char("m"), .ctrl("t")], .cycleMode, bar: "mode", help: "Next ride mode (replans)", screens: [.plan], keyText: "m"),
        KeyBinding([.char("o")], .setOriginAtCursor, bar: "origin here", help: "Set the origin at the map cursor", screens: [.plan]),
        KeyBinding([.char("d")], .setDestinationAtCursor, bar: "dest here", help: "Set the destination at the map cursor", screens: [.plan]),
        KeyBinding([.char("x")], .swapEnds, help: "Swap origin and destination", screens: [.plan]),

        // Map moves
        KeyBinding([.left], .panLeft, bar: "pan", help: "Pan west (moves the cursor)", screens: [.browse, .preview, .plan], keyText: "←↑↓→"),
        KeyBinding([.right], .panRight, help: "Pan east", screens: [.browse, .preview, .plan]),
        KeyBinding([.up], .panUp, help: "Pan north", screens: [.browse, .preview]),
        KeyBinding([.down], .panDown, help: "Pan south", screens: [.browse, .preview]),
        KeyBinding([.char("+"), .char("=")], .zoomIn, bar: "zoom", help: "Zoom in", screens: mapScreens.union([.ride]), keyText: "+/-"),
        KeyBinding([.char("-"), .char("_")], .zoomOut, help: "Zoom out", screens: mapScreens.union([.ride])),
        KeyBinding([.char("f")], .fit, bar: "fit", help: "Fit the whole map (or route) in view", screens: mapScreens),
        KeyBinding([.char("L")], .toggleLegend, help: "Show or hide the legend", screens: mapScreens),
        KeyBinding([.char("C")], .cyclePalette, help: "Next palette: colour-blind safe, high contrast",
                   screens: mapScreens.union([.ride, .arrival])),

        // Preview
        KeyBinding([.char("r")], .startRide, bar: "ride", help: "Ride this route (simulated rider)", screens: [.preview]),
        KeyBinding([.char("p")], .openRidePicker, bar: "replay", help: "Replay a recorded ride from Rides/", screens: [.preview, .plan]),
        KeyBinding([.char("j")], .stepNext, bar: "step", help: "Highlight the next step (Enter zooms the map to it)", screens: [.preview], keyText: "j/k"),
        KeyBinding([.char("k")], .stepPrevious, help: "Highlight the previous step", screens: [.preview]),
        KeyBinding([.enter], .confirm, bar: "zoom step", help: "Zoom the map to the highlighted step (f fits the route again)", screens: [.preview]),
        KeyBinding([.char("a")], .nextRoute, bar: "alt route", help: "Next route: the alternatives are drawn dimmed, the chosen one in colour", screens: [.preview]),
        KeyBinding([.pageDown], .stepsDown, help: "Scroll the step list down a page", screens: [.preview]),
        KeyBinding([.pageUp], .stepsUp, help: "Scroll the step list up a page", screens: [.preview]),
        KeyBinding([.escape], .back, bar: "back", help: "Back to the previous screen", screens: [.preview, .ride, .ridePicker, .browse, .spotList]),

        // Arrival
        KeyBinding([.enter], .confirm, bar: "plan", help: "Back to the plan screen", screens: [.arrival]),
        KeyBinding([.escape], .back, bar: "route", help: "Back to the route preview", screens: [.arrival]),

        // Ride picker
        KeyBinding([.enter], .confirm, bar: "replay", help: "Replay the highlighted ride", screens: [.ridePicker]),

        // Spots and saved routes (issue 17)
        KeyBinding([.char("g")], .openSpots, bar: "spots", help: "Spots list: skateparks, plazas and your spots, nearest first",
                   screens: [.plan, .preview]),
        KeyBinding([.enter], .confirm, bar: "go there", help: "Plan from the current From to the highlighted spot", screens: [.spotList]),
        KeyBinding([.char("w")], .saveRoute, bar: "save", help: "Save this route by name (skateroute routes list/show)", screens: [.preview]),
        KeyBinding([.enter], .confirm, bar: "save", help: "Save the route under the typed name", screens: [.routeName]),
        KeyBinding([.escape], .closeOverlay, bar: "cancel", help: "Do not save", screens: [.routeName]),
        KeyBinding([.ctrl("c")], .quit, help: "Quit", screens: [.routeName]),

        // Ride
        KeyBinding([.char(" ")], .togglePause, bar: "pause", help: "Pause or resume the ride", screens: [.ride]),
        KeyBinding([.char("[")], .slower, bar: "speed", help: "Slower simulation (down to ×0.25)", screens: [.ride], keyText: "[ ]"),
        KeyBinding([.char("]")], .faster, help: "Faster simulation (up to ×60)", screens: [.ride]),
        KeyBinding([.char(".")], .singleStep, help: "Pause and advance one tick (0.1 s)", screens: [.ride]),
        KeyBinding([.char("m")], .toggleBell, bar: "bell", help: "Mute or unmute the cue bell", screens: [.ride]),

        // Reports
        KeyBinding([.char("h")], .hazardPrefix, bar: "hazard", help: "Report a hazard: h then 1-8 (the prompt lists the kinds)",
                   screens: [.ride, .preview, .browse, .plan], keyText: "h 1-8"),
        KeyBinding([.char("r")], .ratePrefix, bar: "rate", help: "Rate the surface here: r then b/o/c", screens: [.ride], keyText: "r b/o/c"),
        KeyBinding([.char("s")], .ratePrefix, bar: "rate", help: "Rate the surface at the cursor: s then b/o/c",
                   screens: [.preview, .browse], keyText: "s b/o/c"),
        KeyBinding([.char("u")], .undoReport, bar: "undo", help: "Undo the last hazard report (within 10 s)", screens: [.ride, .preview, .browse, .plan]),
        KeyBinding([.char("n")], .toggleHeadingUp, help: "Map north-up or heading-up (turned so the way ahead is up, rider low)",
                   screens: [.ride]),

        KeyBinding([.escape], .closeOverlay, help: "Close help or the open panel", screens: [.plan]),
    ])
}
