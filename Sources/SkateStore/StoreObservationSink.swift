import FoundationEssentials
import SkateCore
import Synchronization

/// Persists what a ride measured: each edge pass becomes one committed observation, keyed
/// stably by OSM ids, so the next plan prefers the measured roughness over the tags.
public final class StoreObservationSink: SegmentObservationSink, Sendable {
    let store: SkateStore
    let map: SkateMap
    /// Observations written so far and the errors met, updated from the ride's thread.
    private let tally = Mutex<(recorded: Int, failures: [String])>((0, []))

    /// Minimum clean 10 Hz windows (0.1 s each) behind a figure worth keeping: 2 s of riding.
    public static let minSamples = 20

    public init(store: SkateStore, map: SkateMap) {
        self.store = store
        self.map = map
    }

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
