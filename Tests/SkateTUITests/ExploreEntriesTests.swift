import Foundation
import SkateCore
import SkateTestSupport
import Testing
@testable import SkateTUI

/// The plan screen's cruise and descent entries on the bundled map (issue 32 must-haves 2–3):
/// `t` answers a round trip from From through `Planner.loop`, `D` lists `Planner.downhills` and
/// Enter plans to a run; both are shown, previewed and ridden like any route.
@Suite(.serialized, .enabled(if: FileManager.default.fileExists(atPath: TestData.bundledMonaco), "Maps/monaco.srmap is absent"))
struct ExploreEntriesTests {
    static let size = Size(width: 120, height: 40)

    /// The app on Monaco with From at Place du Casino, the map focused.
    static func start() throws -> (TUIApp, AppModel, ChosenPlace) {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let app = TUIApp(map: map, theme: Theme(colorMode: .ansi256, glyphMode: .unicode))
        var m = app.initialModel(size: size)
        let hit = try #require(app.services.search.search("Place du Casino", limit: 1).first)
        let from = ChosenPlace(name: "Place du Casino", at: hit.candidate.at)
        m.plan.origin = .picked(from)
        m.plan.focus = .map
        return (app, m, from)
    }

    static func text(_ b: ScreenBuffer) -> String { b.lines.joined(separator: "\n") }

    @Test func cruiseKeyPlansALoopFromFromAndCyclesTheLength() throws {
        var (app, m, from) = try Self.start()
        var cmds: [AppCommand]
        (m, cmds) = RouteFixture.press(app, [.char("t")], from: m)
        #expect(cmds.isEmpty)
        let q = try #require(m.plan.query)
        #expect(q.explore == .loop(metres: ExploreEntries.loopLengths[0]))
        #expect(q.from == from.at && q.mode == m.plan.mode)
        let best = try #require(m.plan.routes.first?.plan, Comment(rawValue: m.plan.message ?? "no route"))
        // A round trip: it ends where it starts, near From, about the asked length.
        let a = try #require(best.geometry.first), b = try #require(best.geometry.last)
        #expect(Geo.distance(a, b) < 30)
        #expect(Geo.distance(a, from.at) < 100)
        #expect(abs(best.distance - 5000) / 5000 < 0.3, "\(best.distance) m")
        let screen = Self.text(app.render(m))
        #expect(screen.contains("cruise loop 5.0 km") && screen.contains("> best"), Comment(rawValue: screen))
        // The map shows the route's own cells in its class colours (not only the grey web).
        let frame = app.render(m)
        let area = PlanScreen.mapArea(Self.size)
        let classFgs = Set(RoughnessClass.allCases.map { app.context.theme.routeInk($0).style.fg })
        var routeCells = 0
        for y in area.y..<area.maxY { for x in area.x..<area.maxX where classFgs.contains(frame[x, y].fg) && frame[x, y].attrs.contains(.bold) { routeCells += 1 } }
        #expect(routeCells > 40, "\(routeCells) route cells")
        // t again: the next length, from the same From.
        (m, _) = RouteFixture.press(app, [.char("t")], from: m)
        #expect(m.plan.query?.explore == .loop(metres: ExploreEntries.loopLengths[1]))
        // Enter previews the loop; r rides it.
        (m, _) = RouteFixture.press(app, [.enter], from: m)
        #expect(m.screen == .preview)
        let preview = Self.text(app.render(m))
        #expect(preview.contains("cruise loop 10 km") || preview.contains("cruise loop 10.0 km"), Comment(rawValue: preview))
        let (_, rideCmds) = app.update(m, .key(.char("r")))
        #expect(rideCmds.contains { if case .startRide = $0 { return true } else { return false } })
    }

    @Test func cruiseWithoutFromSaysWhatToDo() throws {
        var (app, m, _) = try Self.start()
        m.plan.origin = PlaceField()
        (m, _) = RouteFixture.press(app, [.char("t")], from: m)
        #expect(m.plan.query == nil)
        #expect(Self.text(app.render(m)).contains("set From first"))
    }

    @Test func descentsListPlansToTheChosenRun() throws {
        var (app, m, from) = try Self.start()
        let (opened, cmds) = app.update(m, .key(.char("D")))
        #expect(cmds == [.findDownhills(from.at, placeName: from.name)])
        #expect(Self.text(app.render(opened)).contains("Reading"))
        (m, _) = RouteFixture.press(app, [.char("D")], from: m)
        let runs = try #require(m.downhillList?.runs)
        // The same runs the engine lists for that place, in its order.
        let engine = app.services.planner.downhills(near: from.at)
        #expect(runs.map(\.run.length) == engine.map(\.length))
        try #require(runs.count >= 2)
        let screen = Self.text(app.render(m))
        #expect(screen.contains("Descents near Place du Casino") && screen.contains("drop"), Comment(rawValue: screen))
        #expect(screen.contains(ExploreEntries.runName(runs[0].run).prefix(12)), Comment(rawValue: screen))
        #expect(m.keyContext == .downhillList)
        // ↓ Enter: the second run, planned from From to its top and down it.
        (m, _) = RouteFixture.press(app, [.down, .enter], from: m)
        #expect(m.downhillList == nil)
        let run = runs[1].run
        #expect(m.plan.query?.explore == .run(runs[1]))
        let best = try #require(m.plan.routes.first?.plan, Comment(rawValue: m.plan.message ?? "no route"))
        #expect(Geo.distance(best.geometry.last!, run.bottom) < 30)
        #expect(best.geometry.contains { Geo.distance($0, run.top) < 30 })
        #expect(Self.text(app.render(m)).contains("descent "))
        // A new To makes the trip ordinary again.
        m.plan.destination = .picked(ChosenPlace(name: "elsewhere", at: run.top))
        #expect(m.plan.activeExplore == nil)
    }

    @Test func newScreensStayWhole() throws {
        var (app, m, _) = try Self.start()
        (m, _) = RouteFixture.press(app, [.char("D")], from: m)
        for size in [Size(width: 40, height: 12), Size(width: 60, height: 20), Size(width: 80, height: 24)] {
            var s = m
            s = app.update(s, .resize(size)).0
            let b = app.render(s)
            #expect(b.size == size)
            // Every row fits the width (no wrapped or garbled line).
            for line in b.lines { #expect(DisplayWidth.of(line) <= size.width, "\(size): \(line)") }
        }
    }

    /// Where `word` first stands on each row of the descents list (the lines that list a drop),
    /// in display cells.
    static func columnsOf(_ word: String, in screen: String) -> [Int] {
        screen.split(separator: "\n").compactMap { line -> Int? in
            guard line.contains("drop"), let r = line.range(of: word) else { return nil }
            return DisplayWidth.of(String(line[..<r.lowerBound]))
        }
    }

    @Test func descentFiguresStandInColumnsWhateverTheName() throws {
        var (app, m, _) = try Self.start()
        (m, _) = RouteFixture.press(app, [.char("D")], from: m)
        let runs = try #require(m.downhillList?.runs).map(\.run)
        try #require(runs.count >= 2)
        // Every row's figures are as wide as every other's, so right-aligned they line up.
        let rows = ExploreEntries.rows(runs, glyphs: .unicode, inner: .max)
        #expect(Set(rows.map { DisplayWidth.of($0.detail) }).count == 1, "\(rows.map(\.detail))")
        for size in [Size(width: 80, height: 24), Size(width: 120, height: 40)] {
            let screen = Self.text(app.render(app.update(m, .resize(size)).0))
            for word in ["drop", "max", " m  "] {
                let xs = Self.columnsOf(word, in: screen)
                #expect(xs.count >= 2 && Set(xs).count == 1, "\(size) \(word) at \(xs):\n\(screen)")
            }
        }
    }

    @Test func narrowDescentListDropsDetailsBeforeNames() throws {
        var (app, m, _) = try Self.start()
        (m, _) = RouteFixture.press(app, [.char("D")], from: m)
        let runs = try #require(m.downhillList?.runs).map(\.run)
        let longest = runs.map { DisplayWidth.of(ExploreEntries.runName($0)) }.max() ?? 0
        let keep = min(ExploreEntries.minimumNameWidth, longest)
        for inner in [40, 52, 72] {
            for r in ExploreEntries.rows(runs, glyphs: .unicode, inner: inner) {
                // The name keeps its cells unless even the length alone does not fit.
                let detail = DisplayWidth.of(r.detail)
                #expect(2 + keep + 1 + detail <= inner || !r.detail.contains("  "), "\(inner): \(r.detail)")
            }
        }
        // Wide enough, nothing is dropped: the steepest grade is listed.
        #expect(ExploreEntries.rows(runs, glyphs: .unicode, inner: .max).allSatisfy { $0.detail.contains("max") })
        // On the smallest plan screen (60×20) the first run's street still reads whole or nearly.
        let screen = Self.text(app.render(app.update(m, .resize(Size(width: 60, height: 20))).0))
        let name = ExploreEntries.runName(runs[0])
        #expect(screen.contains(String(name.prefix(min(keep, name.count)))), Comment(rawValue: screen))
    }
}
