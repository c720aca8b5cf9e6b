import FoundationEssentials
import Glibc
import SkateCore
import SkateRide
import SkateStore

/// A place the rider named or went to lately, as the TUI's search lists it.
public struct RiderPlace: Hashable, Sendable {
    /// Display name (sanitised by the store's `RiderName` rules).
    public var name: String
    /// A saved place's category (`home`, `work`, `spot`, `shop`, `other`), nil for a recent.
    public var category: String?
    public var at: Coordinate
    public init(name: String, category: String?, at: Coordinate) { self.name = name; self.category = category; self.at = at }
}

/// Progress toward the weekly distance goal (`skateroute stats goal 20km`).
public struct WeekProgress: Hashable, Sendable {
    /// Metres ridden this week (Monday 00:00 local time onwards), from the ride index.
    public var distance: Double
    /// The goal in metres.
    public var goal: Double
    public init(distance: Double, goal: Double) { self.distance = distance; self.goal = goal }
}

/// The rider's own data the TUI reads and writes: saved places, recents, the weekly goal and
/// saved routes. The store implements it (`StoreRiderData`); tests and `--no-store` runs use
/// `MemoryRiderData`. Only `TUIApp.perform` and start-up call the writing methods.
public protocol RiderData: AnyObject {
    /// Saved places, by name.
    func savedPlaces() -> [RiderPlace]
    /// The last destinations, most recent first (at most `SkateStore.recentLimit`).
    func recents() -> [RiderPlace]
    /// Makes `place` the most recent destination.
    func recordDestination(_ place: ChosenPlace, now: Date)
    /// This week's distance against the goal, nil when no goal is set.
    func weekProgress(now: Date) -> WeekProgress?
    /// Saves a route. - Throws: `StoreError` (bad or duplicate name), one line each.
    func saveRoute(_ route: SavedRoute) throws -> SavedRoute
    /// Saved routes by name (those whose checksum fails are left out).
    func savedRoutes() -> [SavedRoute]
}

/// `RiderData` over the SQLite store. Read failures read as "nothing saved" (the UI keeps working).
final class StoreRiderData: RiderData, @unchecked Sendable {
    public let store: SkateStore
    /// Time zone weeks start in (Monday 00:00), as `skateroute stats` uses.
    public let timeZone: TimeZone

    /// Where ride logs are written: new ones are indexed before the week is summed, so a ride
    /// just finished counts without a `skateroute stats` run (nil: read the index as it is).
    public let rideLogDirectory: String?
    /// The map climbs are read from when indexing.
    public let map: SkateMap?

    public init(store: SkateStore, timeZone: TimeZone = .current, rideLogDirectory: String? = nil, map: SkateMap? = nil) {
        self.store = store; self.timeZone = timeZone; self.rideLogDirectory = rideLogDirectory; self.map = map
    }

    public func savedPlaces() -> [RiderPlace] {
        ((try? store.places()) ?? []).map { RiderPlace(name: $0.name, category: $0.category.rawValue, at: $0.at) }
    }

    public func recents() -> [RiderPlace] {
        ((try? store.recentDestinations()) ?? []).map { RiderPlace(name: $0.name, category: nil, at: $0.at) }
    }

    public func recordDestination(_ place: ChosenPlace, now: Date) {
        try? store.recordDestination(name: place.name, at: place.at, now: now)
    }

    public func weekProgress(now: Date) -> WeekProgress? {
        guard let text = try? store.setting(SkateStore.weeklyGoalKey), let goal = Double(text), goal > 0 else { return nil }
        if let dir = rideLogDirectory { _ = try? store.indexRideLogs(in: dir) { map } }
        let rides = ((try? store.indexedRides()) ?? []).map(\.record)
        let week = SkateRide.RideStats.weeks(rides, now: now, timeZone: timeZone, count: 1).last?.distance ?? 0
        return WeekProgress(distance: week, goal: goal)
    }

    public func saveRoute(_ route: SavedRoute) throws -> SavedRoute { try store.saveRoute(route) }

    public func savedRoutes() -> [SavedRoute] { ((try? store.savedRoutes()) ?? []).filter(\.intact).map(\.route) }
}

/// `RiderData` in memory: for tests and runs without a store (nothing outlives the session).
final class MemoryRiderData: RiderData, @unchecked Sendable {
    public var places: [RiderPlace]
    public var recentList: [RiderPlace] = []
    public var goal: WeekProgress?
    public var routes: [SavedRoute] = []

    public init(places: [RiderPlace] = [], recents: [RiderPlace] = [], goal: WeekProgress? = nil) {
        self.places = places.sorted { RiderName.folded($0.name) < RiderName.folded($1.name) }
        recentList = recents; self.goal = goal
    }

    public func savedPlaces() -> [RiderPlace] { places }
    public func recents() -> [RiderPlace] { recentList }

    public func recordDestination(_ place: ChosenPlace, now: Date) {
        let key = RiderName.folded(place.name)
        recentList.removeAll { RiderName.folded($0.name) == key }
        recentList.insert(RiderPlace(name: place.name, category: nil, at: place.at), at: 0)
        if recentList.count > SkateStore.recentLimit { recentList.removeLast(recentList.count - SkateStore.recentLimit) }
    }

    public func weekProgress(now: Date) -> WeekProgress? { goal }

    /// Same rules as the store: a valid name, unique by its folded form.
    public func saveRoute(_ route: SavedRoute) throws -> SavedRoute {
        var r = route
        r.name = try RiderName.validate(route.name, what: "route")
        if let existing = routes.first(where: { RiderName.folded($0.name) == RiderName.folded(r.name) }) {
            throw StoreError.duplicateName(what: "route", name: existing.name)
        }
        routes.append(r)
        return r
    }

    public func savedRoutes() -> [SavedRoute] { routes.sorted { RiderName.folded($0.name) < RiderName.folded($1.name) } }
}
