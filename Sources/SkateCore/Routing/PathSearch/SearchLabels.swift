import FoundationEssentials
import Glibc

/// The per-node labels of one A* search (the crusty-run bucket 0 states), on storage borrowed
/// from a pool and handed back when the search ends.
///
/// A search used to fill a fresh `nodes × 24`-byte array before settling its first state: 1.1 MB
/// on Heidelberg, and a plan runs 2–26 searches (rule-bound and relaxed, the detour cap's
/// retries, `trickSpotCrawl`'s spot legs) — 16 % of `skateroute bench`'s routing time went to
/// that fill (perf). Now each label carries the generation of the search that wrote it; a label
/// of another generation reads as unreached, so starting a search is one increment.
final class SearchLabels {
    private let storage: Storage

    init(count: Int) { storage = SearchLabelPool.shared.take(count: count) }

    deinit { SearchLabelPool.shared.give(storage) }

    /// The label of `node` (unreached when no state of this search has set it).
    @inline(__always) subscript(node: Int) -> Search.Label {
        get {
            let l = storage.pointer[node]
            return l.stamp == storage.generation ? l : Search.Label.unreached
        }
        set {
            var l = newValue
            l.stamp = storage.generation
            storage.pointer[node] = l
        }
    }

    /// One allocation of labels and the generation that currently owns it.
    final class Storage {
        let pointer: UnsafeMutablePointer<Search.Label>
        let capacity: Int
        /// Never 0: zeroed memory (stamp 0) reads as unreached.
        private(set) var generation: UInt16 = 0

        init(capacity: Int) {
            self.capacity = capacity
            // calloc: pages no search reaches are never touched, so a plan on a large map
            // keeps only the labels near its line resident.
            let raw = calloc(Swift.max(capacity, 1), MemoryLayout<Search.Label>.stride)!
            pointer = raw.bindMemory(to: Search.Label.self, capacity: Swift.max(capacity, 1))
        }

        /// Starts a new search on this storage: every label now reads as unreached.
        func begin() {
            generation &+= 1
            if generation == 0 {
                // After 65 535 searches the stamps wrap: clear them once, then start again at 1.
                memset(pointer, 0, capacity * MemoryLayout<Search.Label>.stride)
                generation = 1
            }
        }

        deinit { free(pointer) }
    }
}

/// Label storage kept between searches (process-wide, lock-protected).
final class SearchLabelPool: @unchecked Sendable {
    static let shared = SearchLabelPool()

    /// Storages kept for reuse: a plan holds at most two searches at once (rule-bound and
    /// relaxed) on each of at most two threads (the CLI or TUI and its plan worker), each with
    /// its traversal labels and its per-node bests.
    static let maxKept = 8

    private let lock = PlainLock()
    private var free: [SearchLabels.Storage] = []

    func take(count: Int) -> SearchLabels.Storage {
        lock.lock()
        var found: SearchLabels.Storage?
        if let i = free.lastIndex(where: { $0.capacity >= count }) { found = free.remove(at: i) }
        lock.unlock()
        let s = found ?? SearchLabels.Storage(capacity: count)
        s.begin()
        return s
    }

    func give(_ s: SearchLabels.Storage) {
        lock.lock(); defer { lock.unlock() }
        if free.count < Self.maxKept { free.append(s) }
    }
}
