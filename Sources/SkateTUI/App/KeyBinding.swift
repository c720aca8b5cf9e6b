import FoundationEssentials
import Glibc

/// Where keys are looked up: a screen, or a mode of one (typing in a plan field, the help box).
/// Bindings are per context, but a key keeps one meaning wherever it is bound (issue 34: `r` is
/// always "ride", `m` always "mode"); `KeyMap.standard` is checked for that by the tests.
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
    /// The help box over any screen: scroll keys, `?`/Esc close.
    case help
    /// "Leave the ride?" asked after Esc or `q` during a ride.
    case confirmLeave
    /// The list of saved places and routes (over the plan screen).
    case savedList
    /// The list of installed maps (over the plan or browse screen).
    case mapList
    /// The descents near From or the map cursor (over the plan screen).
    case downhillList

    /// Contexts where printable keys are text, not commands.
    public var isTyping: Bool { self == .planInput || self == .routeName }
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
    /// Colour every street by its roughness class (the skateability layer), or back to grey.
    case toggleSkateLayer
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
    /// Arrival: "no" to "N bumps detected — mark as pothole?" (`.yes` says yes).
    case dismissImpacts
    // Reports
    case hazardPrefix
    case ratePrefix
    case undoReport
    // The rider's own (issue 17)
    /// Open the spots list (nearest first; Enter plans there).
    case openSpots
    /// Save the previewed route under a name.
    case saveRoute
    /// Open the list of saved places and routes.
    case openSaved
    /// Open the list of installed maps (Enter switches).
    case openMaps
    /// Plan a cruise loop from From (again: the next length).
    case cruiseLoop
    /// Open the list of descents near From (or the map cursor).
    case openDownhills
    /// Scroll the help box.
    case helpUp, helpDown, helpPageUp, helpPageDown
    /// Answer "yes" to a confirmation (leave the ride).
    case yes
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

    /// The binding only exists when the app has a store to write to (ratings: issue 34 item 6).
    public var needsStore: Bool

    public init(_ keys: [Key], _ action: KeyAction, bar: String = "", help: String, screens: Set<ScreenID> = [], keyText: String? = nil,
                needsStore: Bool = false) {
        self.keys = keys; self.action = action; self.barLabel = bar; self.help = help
        self.screens = screens; self.keyText = keyText; self.needsStore = needsStore
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

    /// The table without the bindings that need a store when there is none.
    public func available(storeOpen: Bool) -> KeyMap { storeOpen ? self : KeyMap(bindings.filter { !$0.needsStore }) }

    /// Screens with a map you can move around on.
    static let mapScreens: Set<ScreenID> = [.browse, .plan, .preview]
    /// Screens where letters are commands (not typing, no question open): `q` and `?` work there.
    static let commandScreens: Set<ScreenID> = [.browse, .plan, .preview, .ride, .ridePicker, .arrival, .spotList, .savedList, .mapList,
                                                .downhillList]
    /// Screens with a list to move through with the arrows.
    static let listScreens: Set<ScreenID> = [.planInput, .ridePicker, .spotList, .savedList, .mapList, .downhillList]

    /// The app's one key table: dispatch, the key bar and the help box are generated from it.
    /// `h` files a hazard on every map screen, so panning is on the arrows.
    public static let standard = KeyMap([
        // Everywhere letters are commands.
        KeyBinding([.char("q")], .quit, bar: "quit", help: "Quit and restore the terminal (asks first during a ride)", screens: commandScreens.union([.help])),
        KeyBinding([.char("?")], .toggleHelp, bar: "help", help: "Show or hide this help", screens: commandScreens.union([.help])),

        // Typing in a plan field: only non-printing keys are bound; letters go into the field.
        KeyBinding([.enter], .confirm, bar: "pick", help: "Pick the highlighted place and leave the field; plans when both ends are set",
                   screens: [.planInput]),
        KeyBinding([.up], .selectUp, bar: "choose", help: "Previous item in the list", screens: listScreens, keyText: "↑↓"),
        KeyBinding([.down], .selectDown, help: "Next item in the list", screens: listScreens),
        KeyBinding([.tab], .nextField, bar: "next field", help: "Next field (From, To, routes); typing: take the match and leave",
                   screens: [.planInput, .plan]),
        KeyBinding([.backTab], .previousField, help: "Previous field", screens: [.planInput, .plan]),
        KeyBinding([.ctrl("u")], .clearField, help: "Clear the field", screens: [.planInput]),
        KeyBinding([.escape], .closeOverlay, bar: "leave", help: "Stop typing: the field keeps what it had before", screens: [.planInput]),
        KeyBinding([.ctrl("c")], .quit, help: "Quit", screens: [.planInput, .routeName]),

        // Plan (command mode)
        KeyBinding([.enter], .confirm, bar: "edit/preview", help: "Edit the highlighted field; on the route list, preview the route",
                   screens: [.plan]),
        KeyBinding([.up], .selectUp, bar: "route", help: "Previous route (pans the map when there are none)", screens: [.plan], keyText: "↑↓"),
        KeyBinding([.down], .selectDown, help: "Next route (pans the map when there are none)", screens: [.plan]),
        KeyBinding([.char("/"), .char("i")], .editField, bar: "type", help: "Type in the highlighted field (From if none)", screens: [.plan],
                   keyText: "/ i"),
        KeyBinding([.char("m"), .ctrl("t")], .cycleMode, bar: "mode", help: "Next ride mode (replans when both ends are set)", screens: [.plan],
                   keyText: "m"),
        KeyBinding([.char("o")], .setOriginAtCursor, bar: "origin here", help: "Set the origin at the map cursor (spots list: the highlighted spot)",
                   screens: [.plan, .spotList]),
        KeyBinding([.char("d")], .setDestinationAtCursor, bar: "dest here", help: "Set the destination at the map cursor", screens: [.plan]),
        KeyBinding([.char("x")], .swapEnds, help: "Swap origin and destination", screens: [.plan]),
        KeyBinding([.char("l")], .openSaved, bar: "saved", help: "Saved places and routes: Enter goes there or opens the route",
                   screens: [.plan]),
        // Before the explore keys: on the plan bar at 120 columns the layer's key is the one that fits.
        KeyBinding([.char("v")], .toggleSkateLayer, bar: "surface",
                   help: "Skateability layer: every street in its surface class (bold measured or rated, plain from tags, dim guessed), steep ones dashed",
                   screens: [.plan]),
        // The browse and preview bars are full (their keys keep their places): help only there.
        KeyBinding([.char("v")], .toggleSkateLayer,
                   help: "Skateability layer: every street in its surface class (bold measured or rated, plain from tags, dim guessed), steep ones dashed",
                   screens: [.browse, .preview]),
        KeyBinding([.char("t")], .cruiseLoop, bar: "cruise",
                   help: "Cruise: a round trip from From in the mode (5 km; t again: 10, 2 km), shown like a route", screens: [.plan]),
        KeyBinding([.char("D")], .openDownhills, bar: "descents",
                   help: "Descents near From (or the map cursor): Enter plans to the top and down the run", screens: [.plan]),

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
        KeyBinding([.escape], .back, bar: "back", help: "Back to the previous screen (asks first during a ride)",
                   screens: [.preview, .ride, .ridePicker, .browse, .spotList, .savedList, .mapList, .downhillList]),

        // Arrival
        KeyBinding([.enter], .confirm, bar: "plan", help: "Back to the plan screen", screens: [.arrival]),
        KeyBinding([.escape], .back, bar: "route", help: "Back to the route preview", screens: [.arrival]),
        KeyBinding([.char("y")], .yes, help: "Mark the bumps this ride detected as potholes (confirms them in the store)", screens: [.arrival]),
        KeyBinding([.char("c")], .dismissImpacts, help: "Dismiss the bumps this ride detected (votes their detected hazards gone)",
                   screens: [.arrival]),

        // Ride picker
        KeyBinding([.enter], .confirm, bar: "replay", help: "Replay the highlighted ride", screens: [.ridePicker]),

        // Map list (issue 27)
        KeyBinding([.enter], .confirm, bar: "open map", help: "Open the highlighted map (the plan starts afresh on it)", screens: [.mapList]),
        KeyBinding([.enter], .confirm, bar: "plan there", help: "Plan to the top of the highlighted descent and down it", screens: [.downhillList]),

        // Spots and saved routes (issue 17)
        KeyBinding([.char("g")], .openSpots, bar: "spots", help: "Spots list: skateparks, plazas and your spots, nearest first",
                   screens: [.plan, .preview]),
        KeyBinding([.enter], .confirm, bar: "go there", help: "Plan to the highlighted spot or place (a saved route opens)",
                   screens: [.spotList, .savedList]),
        KeyBinding([.char("w")], .saveRoute, bar: "save", help: "Save this route by name (skateroute routes list/show)", screens: [.preview]),
        KeyBinding([.enter], .confirm, bar: "save", help: "Save the route under the typed name", screens: [.routeName]),
        KeyBinding([.escape], .closeOverlay, bar: "cancel", help: "Do not save", screens: [.routeName]),

        // Ride
        KeyBinding([.char(" ")], .togglePause, bar: "pause", help: "Pause or resume the ride", screens: [.ride]),
        KeyBinding([.char("[")], .slower, bar: "speed", help: "Slower simulation (down to ×0.25)", screens: [.ride], keyText: "[ ]"),
        KeyBinding([.char("]")], .faster, help: "Faster simulation (up to ×60)", screens: [.ride]),
        KeyBinding([.char(".")], .singleStep, help: "Pause and advance one tick (0.1 s)", screens: [.ride]),
        KeyBinding([.char("b")], .toggleBell, bar: "bell", help: "Mute or unmute the cue bell", screens: [.ride]),
        KeyBinding([.char("n")], .toggleHeadingUp, help: "Map north-up or heading-up (turned so the way ahead is up, rider low)",
                   screens: [.ride]),

        // Reports
        KeyBinding([.char("h")], .hazardPrefix, bar: "hazard", help: "Report a hazard: h then 1-8 (the prompt lists the kinds)",
                   screens: [.ride, .preview, .browse, .plan], keyText: "h 1-8"),
        // Every ride in the TUI is simulated or replayed, where a rating cannot be stored: rating
        // is at the map cursor only, and only with a store.
        KeyBinding([.char("s")], .ratePrefix, bar: "rate", help: "Rate the surface at the cursor: s then b/o/c",
                   screens: [.preview, .browse], keyText: "s b/o/c", needsStore: true),
        KeyBinding([.char("u")], .undoReport, bar: "undo", help: "Undo the last hazard report (within 10 s)", screens: [.ride, .preview, .browse, .plan]),

        KeyBinding([.escape], .closeOverlay, help: "Leave the route list for the map keys", screens: [.plan]),
        // Last on the bar: the bars of issue 34 keep their order.
        KeyBinding([.char("M")], .openMaps, bar: "maps", help: "Installed maps: Enter opens the highlighted one (skateroute maps lists them)",
                   screens: [.plan, .browse]),

        // The help box
        KeyBinding([.up], .helpUp, bar: "scroll", help: "Scroll the help up", screens: [.help], keyText: "↑↓"),
        KeyBinding([.down], .helpDown, help: "Scroll the help down", screens: [.help]),
        KeyBinding([.pageUp], .helpPageUp, help: "Help page up", screens: [.help]),
        KeyBinding([.pageDown], .helpPageDown, help: "Help page down", screens: [.help]),
        KeyBinding([.escape], .closeOverlay, bar: "close", help: "Close the help", screens: [.help]),

        // "Leave the ride?"
        KeyBinding([.char("y"), .enter], .yes, bar: "leave the ride", help: "Leave the ride (the log is closed)", screens: [.confirmLeave],
                   keyText: "y"),
        KeyBinding([.escape], .closeOverlay, bar: "keep riding", help: "Keep riding (so does any other key)", screens: [.confirmLeave]),
    ])
}
