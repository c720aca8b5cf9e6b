import Foundation
import SkateCore
import SkateTestSupport
import Testing
@testable import SkateTUI

/// Issue 34 item 4: how many step-list rows end in "…" on 30 seeded Monaco pairs at 80, 120 and
/// 200 columns. Prints the shares (the closing figures) and holds the wide screens to no
/// cut rows at all.
@Suite struct StepListCutTests {
    static let mapAvailable = FileManager.default.fileExists(atPath: TestData.bundledMonaco)
    /// Pairs measured (the issue asks for 30).
    static let pairs = 30

    /// Rows of the step list (below the "Steps" header, right of its column) on a rendered preview.
    static func stepRows(_ frame: ScreenBuffer) -> [String] {
        let lines = frame.lines
        guard let hy = lines.indices.first(where: { lines[$0].contains("Steps") && lines[$0].contains(" steps") }) else { return [] }
        let header = Array(lines[hy])
        var col = 0
        for i in 0..<(header.count - 4) where String(header[i..<(i + 5)]) == "Steps" { col = i; break }
        return lines[(hy + 1)..<(lines.count - 1)].map { String(Array($0).dropFirst(max(0, col - 1))) }
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// (cut rows, all rows) of the step lists of `pairs` seeded routes at `size`, every step
    /// paged through with PgDn.
    static func measure(map: SkateMap, size: Size) -> (cut: Int, rows: Int) {
        let app = TUIApp(map: map, theme: Theme(colorMode: .none, glyphMode: .unicode))
        var rng = UInt64(34)
        func next() -> Double {
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            return Double(rng >> 11) / Double(1 << 53)
        }
        let box = map.bbox
        var cut = 0, rows = 0, done = 0, tries = 0
        while done < pairs, tries < pairs * 5 {
            tries += 1
            let a = Coordinate(lat: box.minLat + next() * (box.maxLat - box.minLat), lon: box.minLon + next() * (box.maxLon - box.minLon))
            let b = Coordinate(lat: box.minLat + next() * (box.maxLat - box.minLat), lon: box.minLon + next() * (box.maxLon - box.minLon))
            let q = PlanQuery(id: 1, from: a, to: b, mode: .smoothest, firstPlanID: 1)
            let answer = PlanScreen.answer(q, planner: app.services.planner)
            guard let ref = answer.plans.first, ref.plan.steps.count > 1 else { continue }
            done += 1
            var m = app.initialModel(size: size)
            m.preview = PreviewScreen.make(plan: ref, routes: answer.plans, from: "A", to: "B", context: app.context, services: app.services, size: size)
            m.screen = .preview
            var seen = Set<String>()
            for _ in 0..<40 {
                let r = stepRows(app.render(m)).filter { seen.insert($0).inserted }
                rows += r.count
                cut += r.filter { $0.contains("…") }.count
                let before = m.preview?.stepScroll
                m = app.update(m, .key(.pageDown)).0
                if m.preview?.stepScroll == before { break }
            }
        }
        return (cut, rows)
    }

    /// Share of step rows that may end in "…" at 120 columns (1.4 % measured when the map was
    /// given 55 % of the width; 3 % leaves room for map changes, well under the 53.6 % of before).
    static let maxCutShareAt120 = 0.03

    @Test(.enabled(if: mapAvailable, "Maps/monaco.srmap is absent"))
    func stepRowsAreNotCutOnWideScreens() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        var share: [Int: Double] = [:]
        for (w, h) in [(80, 24), (120, 40), (200, 60)] {
            let (cut, rows) = Self.measure(map: map, size: Size(width: w, height: h))
            #expect(rows > 100, "too few step rows measured at \(w) columns: \(rows)")
            share[w] = rows == 0 ? 0 : Double(cut) / Double(rows)
            print("step-list rows cut with …: \(w)x\(h) \(cut)/\(rows) = \(Int((share[w]! * 1000).rounded()) / 10) %")
        }
        // At 120 the map keeps 55 % of the width (issue 34's leftover): a few long rows may be cut.
        #expect(share[120]! <= Self.maxCutShareAt120 && share[200] == 0, "\(share)")
    }
}
