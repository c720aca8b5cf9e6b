import Synchronization

/// The map's places of the kinds a step's description looks for (squares, pedestrian areas,
/// parks), with their positions side by side, gathered once per `PlanBuilder` on first use.
///
/// `nearestPlace` used to test every place of the map for each unnamed step: on the K = 7 region
/// (49 Heidelbergs, ~46 k places) that scan was 7 % of all plan time (perf, `bench --scale 7`),
/// and it grows with the map while a step does not. Now one pass per plan gathers the few kinds
/// asked for, and each step tests only those. (Sorting them by latitude for a band search cost
/// more per plan than it saved: 5 M instructions on a K = 7 plan.) The answer is the same: the
/// nearest by distance, then by name, which does not depend on the order places are tested in
/// (`PlacesByKindTests`).
final class PlacesByKind: Sendable {
    /// One kind's places: each one's place index and position (degrees).
    struct Gathered: Sendable {
        var index: [Int] = []
        var lat: [Double] = []
        var lon: [Double] = []
    }

    /// The kinds gathered: those `WayDescription` asks for.
    static let kinds: [PlaceKind] = [.square, .pedestrianArea, .leisure]

    private let gathered = Mutex<[Gathered]?>(nil)

    init() {}

    /// The places of `kind` (one of `kinds`; none otherwise), gathered from `map` on first use.
    func places(of kind: PlaceKind, in map: SkateMap) -> Gathered {
        guard let slot = Self.kinds.firstIndex(of: kind) else { return Gathered() }
        return gathered.withLock { g in
            if let g { return g[slot] }
            // Slot by raw kind (−1: not gathered): one byte read and one table read per place.
            var slotOf = [Int](repeating: -1, count: 256)
            for (s, k) in Self.kinds.enumerated() { slotOf[Int(k.rawValue)] = s }
            var lists = [Gathered](repeating: Gathered(), count: Self.kinds.count)
            for i in 0..<map.placeCount {
                let s = slotOf[Int(map.placeKind[i])]
                guard s >= 0 else { continue }
                lists[s].index.append(i)
                lists[s].lat.append(map.placeLat[i])
                lists[s].lon.append(map.placeLon[i])
            }
            g = lists
            return lists[slot]
        }
    }
}
