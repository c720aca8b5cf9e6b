import FoundationEssentials
import SkateCore
import SkateRide
import Synchronization

/// Persists what a ride measured: each edge pass becomes one committed observation, keyed
/// stably by OSM ids, so the next plan prefers the measured roughness over the tags.
public final class StoreObservationSink: SegmentObservationSink, Sendable {
    let store: SkateStore
    let map: SkateMap
    /// Observations written so far and the errors met, updated from the ride's thread.
    private let tally = Mutex<(recorded: Int, failures: [String])>((0, []))
    /// What the ride's impacts did (issue 28), once the ride ended.
    private let impactTally = Mutex<ImpactLearningOutcome?>(nil)
    private let zones: NoReportZones

    /// Minimum clean 10 Hz windows (0.1 s each) behind a figure worth keeping: 2 s of riding.
    public static let minSamples = 20

    public init(store: SkateStore, map: SkateMap) {
        self.store = store
        self.map = map
        zones = NoReportZones(map: map)
    }

    /// What the ride's impacts did in the store (nil before the ride ended or without impacts).
    public var impactOutcome: ImpactLearningOutcome? { impactTally.withLock { $0 } }

    /// Observations written so far.
    public var recorded: Int { tally.withLock { $0.recorded } }
    /// Errors met while writing (the ride goes on; the NDJSON log still holds every sample).
    public var failures: [String] { tally.withLock { $0.failures } }

    public func record(edge: Int, rms: Double, samples: Int, at: Date) {
        guard edge >= 0, edge < map.edgeCount, samples >= Self.minSamples, rms.isFinite, rms >= 0 else { return }
        do {
            try store.recordMeasurement(EdgeKey(map: map, edge: edge), rms: rms, at: at)
            tally.withLock { $0.recorded += 1 }
        } catch {
            tally.withLock { $0.failures.append("\(error)") }
        }
    }
}

extension StoreObservationSink: RideLearningSink {
    /// Stores the impacts placed on this map's edges and files detected hazards (`recordImpacts`).
    public func recordImpacts(_ impacts: [RoughnessImpact], rideId: String, start: Double) {
        let rows: [StoredImpact] = impacts.compactMap { i in
            guard let m = i.edge, m.edge >= 0, m.edge < map.edgeCount, let p = i.position else { return nil }
            return StoredImpact(edge: EdgeKey(map: map, edge: m.edge), offset: m.offset, position: p, peak: i.peak,
                                kind: i.kind.rawValue, rideId: rideId, at: Date(timeIntervalSince1970: start + i.t))
        }
        do {
            let out = try store.recordImpacts(rows, rideId: rideId, zones: zones)
            impactTally.withLock { $0 = out }
        } catch {
            tally.withLock { $0.failures.append("\(error)") }
        }
    }

    /// Stores the stretch figures of one edge pass (`recordStretches`).
    public func recordStretches(edge: Int, stretches: [StretchRoughness], at: Date) {
        guard edge >= 0, edge < map.edgeCount else { return }
        do {
            try store.recordStretches(EdgeKey(map: map, edge: edge), stretches: stretches.map { ($0.from, $0.to, $0.rms, $0.windows) }, at: at)
        } catch {
            tally.withLock { $0.failures.append("\(error)") }
        }
    }
}
