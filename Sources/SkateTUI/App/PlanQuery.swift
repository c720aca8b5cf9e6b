import Dispatch
import FoundationEssentials
import Glibc
import SkateCore
import Synchronization

/// A route asked of the planner. `update` never plans: it asks with `AppCommand.plan`, and the
/// answer comes back as `AppEvent.planned`; an answer to an older query than the plan screen's
/// latest (the rider changed an end or the mode meanwhile) is dropped.
public struct PlanQuery: Hashable, Sendable {
    /// Increases with every query of a session.
    public var id: Int
    public var from: Coordinate
    public var to: Coordinate
    public var mode: RideMode
    /// Id of the answer's first route (the rest follow), reserved when the query was made.
    public var firstPlanID: Int
    /// A cruise loop or a descent instead of the trip to `to` (issue 32), nil for a trip.
    public var explore: ExploreAsk?
    public init(id: Int, from: Coordinate, to: Coordinate, mode: RideMode, firstPlanID: Int, explore: ExploreAsk? = nil) {
        self.id = id; self.from = from; self.to = to; self.mode = mode; self.firstPlanID = firstPlanID; self.explore = explore
    }
}

/// The planner's answer to a query: the best route and its alternatives, or one line saying why not.
public struct PlanAnswer: Hashable, Sendable {
    public var query: PlanQuery
    public var plans: [PlanRef]
    /// Why there is no route (one line, sanitised), nil on success.
    public var error: String?
    public init(query: PlanQuery, plans: [PlanRef], error: String?) { self.query = query; self.plans = plans; self.error = error }
}

/// Runs plan queries off the UI thread (see `LatestWorker`).
public typealias PlanWorker = LatestWorker<PlanQuery>
/// Runs place searches off the UI thread, so a key never waits for one (issue 29 row 2).
public typealias SearchWorker = LatestWorker<PlaceSearchQuery>

extension LatestWorker where Query == PlanQuery {
    public convenience init(plan: @escaping @Sendable (PlanQuery) -> PlanAnswer) { self.init(label: "skateroute.plan") { .planned(plan($0)) } }
}

extension LatestWorker where Query == PlaceSearchQuery {
    public convenience init(search: @escaping @Sendable (PlaceSearchQuery) -> PlaceSearchAnswer) {
        self.init(label: "skateroute.search") { .searched(search($0)) }
    }
}

/// Runs queries off the UI thread and hands the answers back to the loop as events (`AppLoop`
/// drains it every iteration). Only the newest query matters: one still waiting when a newer one
/// comes is never run.
public final class LatestWorker<Query: Sendable>: Sendable {
    private struct State {
        var waiting: Query?
        var running = false
        var done: [AppEvent] = []
    }
    private let state = Mutex(State())
    private let queue: DispatchQueue
    private let plan: @Sendable (Query) -> AppEvent

    /// - Parameter run: the work for one query, answered as the event the loop should see.
    public init(label: String, run: @escaping @Sendable (Query) -> AppEvent) {
        queue = DispatchQueue(label: label)
        plan = run
    }

    /// Queues `q` (replacing a query not yet started).
    public func submit(_ q: Query) {
        let start = state.withLock { s in
            s.waiting = q
            let start = !s.running
            if start { s.running = true }
            return start
        }
        if start { queue.async { self.drainQueries() } }
    }

    private func drainQueries() {
        while true {
            let next = state.withLock { s -> Query? in
                guard let q = s.waiting else { s.running = false; return nil }
                s.waiting = nil
                return q
            }
            guard let q = next else { return }
            let answer = plan(q)
            state.withLock { $0.done.append(answer) }
        }
    }

    /// Answers that arrived since the last call.
    public func takeAnswers() -> [AppEvent] {
        state.withLock { s in
            let out = s.done
            s.done = []
            return out
        }
    }

    /// Whether a query is waiting or running.
    public var busy: Bool {
        state.withLock { $0.running || $0.waiting != nil }
    }
}
