import SkateCore

/// A descent found near a place, held by the model (compared by its id: `DownhillRun` is not
/// `Equatable`).
public struct DownhillRef: Hashable, Sendable {
    public let id: Int
    public let run: DownhillRun
    public init(id: Int, run: DownhillRun) { self.id = id; self.run = run }
    public static func == (a: Self, b: Self) -> Bool { a.id == b.id }
    public func hash(into h: inout Hasher) { h.combine(id) }
}

/// What the plan screen asks instead of a trip to a destination (issue 32): a cruise loop from
/// From, or the way to the top of a descent and down it.
public enum ExploreAsk: Hashable, Sendable {
    /// A round trip of about `metres` from From (`Planner.loop`).
    case loop(metres: Double)
    /// From From to the top of the run, then down it (`Planner.plan(from:toRun:mode:)`).
    case run(DownhillRef)

    /// The To field's text.
    public var label: String {
        switch self {
        case .loop(let m): return "cruise loop " + Format.distance(m)
        case .run(let r): return "descent " + ExploreEntries.runName(r.run)
        }
    }
}

/// The descents list's answer (`AppCommand.findDownhills`).
public struct DownhillAnswer: Hashable, Sendable {
    /// Where the runs were looked for, and what the list calls it.
    public var center: Coordinate
    public var placeName: String
    public var runs: [DownhillRef]
}

/// State of the descents list (a box over the plan screen); `runs` is nil until found.
struct DownhillListState: Hashable, Sendable {
    public var placeName: String
    public var runs: [DownhillRef]?
    public var selected = 0
}

/// The plan screen's explore entries: `t` plans a cruise loop from From (each press the next
/// length), `D` lists the descents near From (or the map cursor) and Enter plans to one. Both
/// reuse `SkateCore/Explore` (the CLI's `plan --loop` and `downhills`) and show the answer like
/// any route: the route list, the preview, the ride.
enum ExploreEntries {
    /// Loop lengths `t` cycles through, in metres: the 2, 5 and 10 km (5 km first: the
    /// issue's "5 km cruise from my door").
    static let loopLengths: [Double] = [5000, 10_000, 2000]

    /// The length after `current` (the first when none).
    static func nextLength(after current: Double?) -> Double {
        guard let c = current, let i = loopLengths.firstIndex(of: c) else { return loopLengths[0] }
        return loopLengths[(i + 1) % loopLengths.count]
    }

    /// Seed of the loop's heading: fixed, so the same From, length and mode give the same loop.
    static let loopSeed: UInt64 = 0

    /// The plan state asking for a cruise loop from From: To shows the loop, and the plan is
    /// asked at once. Without From it says what to do first.
    static func cruise(_ state: PlanState, services: TUIServices) -> PlanState {
        var s = state
        guard let from = s.origin.chosen else {
            s.message = "Cruise: set From first (Enter to type, or o at the map cursor), then t"
            s.messageIsError = true
            return s
        }
        var current: Double?
        if case .loop(let m) = s.explore, s.destination.chosen == s.exploreTo { current = m }
        return Self.ask(.loop(metres: nextLength(after: current)), at: from.at, state: s, services: services)
    }

    /// The plan state asking for the way to a descent and down it.
    static func toRun(_ ref: DownhillRef, state: PlanState, services: TUIServices) -> PlanState {
        var s = state
        // Without From the run itself is the route: it starts at its top.
        if s.origin.chosen == nil { s.origin = .picked(ChosenPlace(name: "top of " + runName(ref.run), at: ref.run.top)) }
        return Self.ask(.run(ref), at: ref.run.bottom, state: s, services: services)
    }

    static func ask(_ ask: ExploreAsk, at: Coordinate, state: PlanState, services: TUIServices) -> PlanState {
        var s = state
        let to = ChosenPlace(name: ask.label, at: at)
        s.destination = .picked(to)
        s.explore = ask
        s.exploreTo = to
        s.editing = false
        s.routes = []
        return PlanScreen.planNow(s, services: services)
    }

    /// A run's name: its first street, else what its ways are ("footway through Parc X").
    static func runName(_ r: DownhillRun) -> String {
        let name = r.displayName
        return TerminalSafe.clean(name.isEmpty ? "unnamed way" : name)
    }

    /// Where the descents are looked for: From when set, else the map cursor.
    static func downhillCenter(_ s: PlanState, map: SkateMap) -> (Coordinate, String)? {
        if let f = s.origin.chosen { return (f.at, f.name) }
        guard let c = s.map?.viewport.center else { return nil }
        return (c, HumanText.pointName(c, map: map))
    }

    /// The runs near `center` (the command's work).
    static func findDownhills(center: Coordinate, placeName: String, planner: Planner) -> DownhillAnswer {
        let runs = planner.downhills(near: center)
        return DownhillAnswer(center: center, placeName: placeName, runs: runs.enumerated().map { DownhillRef(id: $0.offset + 1, run: $0.element) })
    }

    /// The planner's work for a query that explores (nil: an ordinary query).
    static func answer(_ q: PlanQuery, planner: Planner) throws -> [RoutePlan]? {
        switch q.explore {
        case nil: return nil
        case .loop(let metres)?:
            let r = try planner.loop(from: q.from, length: metres, mode: q.mode, seed: loopSeed, alternatives: PlanScreen.alternatives)
            var best = r.plan
            if let n = r.note { best.notes.insert(n, at: 0) }
            return [best] + r.plan.alternatives
        case .run(let ref)?:
            return [try planner.plan(from: q.from, toRun: ref.run, mode: q.mode)]
        }
    }

    // MARK: The descents list

    static func apply(_ action: KeyAction, to state: DownhillListState) -> DownhillListState {
        var s = state
        s.selected = PickerBox.moved(s.selected, count: s.runs?.count ?? 0, by: action)
        return s
    }

    /// One figure of a run in the list: a word before it ("drop", "max") and its value; values
    /// are right-aligned after the word so digits and units line up down the list.
    struct Figure {
        var word: String
        var value: String
        /// A word-only figure (the class, the crossings) is left-aligned instead.
        var isText: Bool = false
    }

    /// A run's figures as the list's columns, in display order: length, drop, mean grade,
    /// steepest grade, class, crossings (empty when none).
    static func columns(_ r: DownhillRun, glyphs: GlyphMode) -> [Figure] {
        let minus = glyphs == .unicode ? "−" : "-"
        func pct(_ v: Double) -> String { (v < 0 ? minus : "") + String(format1: abs(v)) + " %" }
        return [Figure(word: "", value: Format.distance(r.length)), Figure(word: "drop ", value: "\(Int(r.drop.rounded())) m"),
                Figure(word: "", value: pct(r.meanGradePct)), Figure(word: "max ", value: pct(r.steepestGradePct)),
                Figure(word: "", value: r.roughness.name, isText: true),
                Figure(word: "", value: r.crossings > 0 ? "\(r.crossings) crossing" + (r.crossings == 1 ? "" : "s") : "", isText: true)]
    }

    /// The order in which columns leave a box too narrow for all of them (index into `columns`,
    /// first to go first): crossings and the steepest grade are the details, length, mean grade
    /// and class what a rider picks a run by.
    static let columnsDroppedFirst = [5, 3, 1, 4]

    /// Name columns the list keeps before it drops a figure: "Boulevard du Larvotto" and
    /// "Schloss-Wolfsbrunnenweg" read whole; a street name cut much shorter stops telling runs apart.
    static let minimumNameWidth = 22

    /// Gap between columns, in cells.
    static let columnGap = "  "

    /// The descents list laid out once: every run's figures, each column's width and the names,
    /// from which both the box's natural width and the rows fitted to a narrower box come.
    struct DescentTable {
        let names: [String]
        let cells: [[Figure]]
        /// Each column's width in cells (0 where no run has that figure).
        let widths: [Int]

        init(_ runs: [DownhillRun], glyphs: GlyphMode) {
            names = runs.map(runName)
            cells = runs.map { columns($0, glyphs: glyphs) }
            let count = cells.first?.count ?? 0
            widths = (0..<count).map { [cells] c in cells.map { $0[c].value.isEmpty ? 0 : Self.width($0[c]) }.max() ?? 0 }
        }

        static func width(_ f: Figure) -> Int { DisplayWidth.of(f.word) + DisplayWidth.of(f.value) }

        /// Cells the kept columns take with their gaps.
        func detailWidth(_ kept: [Int]) -> Int {
            let used = kept.filter { widths[$0] > 0 }
            return used.reduce(0) { $0 + widths[$1] } + max(0, used.count - 1) * DisplayWidth.of(columnGap)
        }

        /// Widest name plus every column: what a row takes in a box wide enough for all of it.
        var naturalWidth: Int { (names.map(DisplayWidth.of).max() ?? 0) + detailWidth(Array(widths.indices)) }

        /// The rows for a box `inner` cells wide inside its frame and margins: columns leave,
        /// least useful first, until the names keep `minimumNameWidth` cells.
        func rows(inner: Int) -> [PickerBox.Row] {
            let nameWidth = min(minimumNameWidth, names.map(DisplayWidth.of).max() ?? 0)
            var kept = Array(widths.indices)
            for c in columnsDroppedFirst where 2 + nameWidth + 1 + detailWidth(kept) > inner { kept.removeAll { $0 == c } }
            return zip(names, cells).map { name, row in
                let parts = kept.filter { widths[$0] > 0 }.map { c -> String in
                    let f = row[c]
                    let pad = String(repeating: " ", count: widths[c] - (f.value.isEmpty ? 0 : Self.width(f)))
                    if f.isText || f.value.isEmpty { return f.word + f.value + pad }
                    return f.word + pad + f.value
                }
                return PickerBox.Row(name: name, detail: parts.joined(separator: columnGap))
            }
        }
    }

    /// The list's rows, their figures in aligned columns (numbers right-aligned, words left) so the
    /// same figure stands at the same place on every row whatever the name's length; columns
    /// leave, least useful first, until the names keep `minimumNameWidth` cells of `inner` (the
    /// box's width inside its frame and margins).
    static func rows(_ runs: [DownhillRun], glyphs: GlyphMode, inner: Int) -> [PickerBox.Row] {
        DescentTable(runs, glyphs: glyphs).rows(inner: inner)
    }

    /// Narrowest box the list asks for, in cells: the empty note and the key line read whole.
    static let preferredMinimumWidth = 50

    static func render(_ s: DownhillListState, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        let table = s.runs.map { DescentTable($0.map(\.run), glyphs: theme.glyphs) }
        // A row's name, its columns and PickerBox's frame, margins and name gap.
        let width = max(preferredMinimumWidth, table.map { $0.names.isEmpty ? 0 : $0.naturalWidth + 9 } ?? 0)
        // PickerBox's inner width for this area: the box less its frame and margins.
        let inner = min(area.width - 4, width) - 4
        let fitted = table?.rows(inner: inner)
        PickerBox.render(title: "Descents near " + TerminalSafe.clean(s.placeName), rows: fitted, selected: s.selected, width: width,
                         emptyNote: "No gentle, smooth descent within 3 km (a flat map, or every way down brakes)",
                         keys: "Enter plan there  Esc close", theme: theme, into: &buffer, area: area)
    }
}
