import Foundation
import SkateCore

/// Persists what a ride measured: each edge pass becomes one committed observation, keyed
/// stably by OSM ids, so the next plan prefers the measured roughness over the tags.
public final class StoreObservationSink: SegmentObservationSink, @unchecked Sendable {
    let store: SkateStore
    let map: SkateMap
    private let lock = NSLock()
    private var _recorded = 0
    private var _failures: [String] = []

    /// Minimum clean 10 Hz windows (0.1 s each) behind a figure worth keeping: 2 s of riding.
    public static let minSamples = 20

    public init(store: SkateStore, map: SkateMap) {
        self.store = store
        self.map = map
    }

    /// Observations written so far.
    public var recorded: Int { lock.lock(); defer { lock.unlock() }; return _recorded }
    /// Errors met while writing (the ride goes on; the NDJSON log still holds every sample).
    public var failures: [String] { lock.lock(); defer { lock.unlock() }; return _failures }

    public func record(edge: Int, rms: Double, samples: Int, at: Date) {
        guard edge >= 0, edge < map.edgeCount, samples >= Self.minSamples, rms.isFinite, rms >= 0 else { return }
        do {
            try store.recordMeasurement(EdgeKey(map: map, edge: edge), rms: rms, at: at)
            lock.lock(); _recorded += 1; lock.unlock()
        } catch {
            lock.lock(); _failures.append("\(error)"); lock.unlock()
        }
    }
}
