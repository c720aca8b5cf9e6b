import Foundation
import Testing
import SkateCore
import SkateTestSupport
@testable import SkateTUI

/// `update` never plans: choosing both ends emits a plan command, the answer comes back as an
/// event, and an answer to a superseded query is dropped.
@Suite struct PlanAsCommandTests {
    nonisolated(unsafe) static let map = AsciiMap("""
    A---------B
    |         |
    C---------D
    """, ways: [("AB", ["highway": "residential"]), ("BD", ["highway": "residential"]),
                ("DC", ["highway": "residential"]), ("CA", ["highway": "residential"])])

    static func app() -> (TUIApp, AppModel) {
        let services = TUIServices(map: map.map)
        let app = TUIApp(map: map.map, theme: Theme(colorMode: .none, glyphMode: .unicode), services: services)
        var m = app.initialModel(size: Size(width: 120, height: 40))
        m.plan.origin.chosen = ChosenPlace(name: "A", at: map.nodes["A"]!)
        m.plan.destination.chosen = ChosenPlace(name: "D", at: map.nodes["D"]!)
        m.plan.focus = .routes
        return (app, m)
    }

    @Test func planningIsACommandAndItsAnswerAnEvent() {
        let (app, m0) = Self.app()
        // Swapping the ends re-plans: update only asks.
        let (m1, commands) = app.update(m0, .key(.char("x")))
        guard case .plan(let q)? = commands.first(where: { if case .plan = $0 { return true } else { return false } }) else {
            Issue.record("no plan command: \(commands)"); return
        }
        #expect(m1.plan.planning && m1.plan.routes.isEmpty && m1.plan.message == "Planning…")
        // The answer arrives as an event.
        let answers = app.perform(.plan(q))
        guard case .planned(let a)? = answers.first else { Issue.record("no answer"); return }
        #expect(a.error == nil && !a.plans.isEmpty)
        let m2 = app.update(m1, .planned(a)).0
        #expect(!m2.plan.planning && !m2.plan.routes.isEmpty)
        // An answer to an older query is dropped.
        var newer = m1
        newer.plan.query?.id += 1
        let m3 = app.update(newer, .planned(a)).0
        #expect(m3.plan.routes.isEmpty && m3.plan.planning)
    }

    @Test func workerAnswersOffTheLoopAndKeepsOnlyTheNewest() throws {
        let (app, m0) = Self.app()
        let planner = Planner(map: Self.map.map)
        let gate = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
        let worker = PlanWorker { q in
            if q.id == 1 { started.signal(); gate.wait() }  // the first query is slow
            return PlanScreen.answer(q, planner: planner)
        }
        _ = app
        let a = Self.map.nodes["A"]!, d = Self.map.nodes["D"]!
        worker.submit(PlanQuery(id: 1, from: a, to: d, mode: .smoothest, firstPlanID: 1))
        started.wait()  // query 1 is running (was: a 50 ms sleep, which a loaded machine outlasts)
        worker.submit(PlanQuery(id: 2, from: a, to: d, mode: .smoothest, firstPlanID: 10))
        worker.submit(PlanQuery(id: 3, from: d, to: a, mode: .smoothest, firstPlanID: 20))
        #expect(worker.busy)
        gate.signal()
        var answers: [AppEvent] = []
        // Polls until both answers are in (a bound, not a speed target: a minute on any machine).
        for _ in 0..<6_000 where answers.count < 2 {
            answers += worker.takeAnswers()
            Thread.sleep(forTimeInterval: 0.01)
        }
        let ids = answers.compactMap { e -> Int? in if case .planned(let x) = e { return x.query.id } else { return nil } }
        #expect(ids == [1, 3], "query 2 was superseded before it started: \(ids)")
        _ = m0
    }
}
