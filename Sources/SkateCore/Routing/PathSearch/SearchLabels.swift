import FoundationEssentials
import Glibc
import Synchronization

/// A label a search stores per state or per node: it carries the generation of the search that
/// wrote it (`SearchLabels`), and a value that reads as "not reached yet".
protocol StampedLabel: BitwiseCopyable {
    var stamp: UInt16 { get set }
    static var unreached: Self { get }
}

/// The labels of one A* search (per traversal or node: `Search.Label`; per node: `Search.NodeEntry`),
/// on storage borrowed from a pool and handed back when the search ends.
///
/// A search used to fill a fresh `nodes × 24`-byte array before settling its first state: 1.1 MB
/// on Heidelberg, and a plan runs 2–26 searches (rule-bound and relaxed, the detour cap's
/// retries, `trickSpotCrawl`'s spot legs) — 16 % of `skateroute bench`'s routing time went to
/// that fill (perf). Now each label carries the generation of the search that wrote it; a label
/// of another generation reads as unreached, so starting a search is one increment.
final class SearchLabels<Element: StampedLabel> {
    private let storage: Storage

    init(count: Int) { storage = SearchLabelPool.shared.take(count: count) }

    deinit { SearchLabelPool.shared.give(storage) }

    /// The label at `index` (unreached when no state of this search has set it).
    @inline(__always) subscript(index: Int) -> Element {
        get {
            let l = storage.pointer[index]
            return l.stamp == storage.generation ? l : Element.unreached
        }
        set {
            var l = newValue
            l.stamp = storage.generation
            storage.pointer[index] = l
        }
    }

    /// One allocation of labels and the generation that currently owns it. Sendable because
    /// it has one owner at a time: a search, or `SearchLabelPool` between searches.
    final class Storage: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<Element>
        let capacity: Int
        /// Never 0: zeroed memory (stamp 0) reads as unreached.
        private(set) var generation: UInt16 = 0

        init(capacity: Int) {
            self.capacity = capacity
            // calloc: pages no search reaches are never touched, so a plan on a large map
            // keeps only the labels near its line resident.
            let raw = calloc(Swift.max(capacity, 1), MemoryLayout<Element>.stride)!
            pointer = raw.bindMemory(to: Element.self, capacity: Swift.max(capacity, 1))
        }

        /// Starts a new search on this storage: every label now reads as unreached.
        func begin() {
            generation &+= 1
            if generation == 0 {
                // After 65 535 searches the stamps wrap: clear them once, then start again at 1.
                memset(pointer, 0, capacity * MemoryLayout<Element>.stride)
                generation = 1
            }
        }

        deinit { free(pointer) }
    }
}

/// Label storage kept between searches (process-wide, lock-protected).
final class SearchLabelPool: Sendable {
    static let shared = SearchLabelPool()

    /// Storages kept for reuse: a plan holds at most two searches at once (rule-bound and
    /// relaxed) on each of at most two threads (the CLI or TUI and its plan worker), each with
    /// its traversal labels and its per-node bests, and beside them a crusty-rule proof's two
    /// sides; or a `ShortestLine` from both ends (two) per thread.
    static let maxKept = 12

    /// `SearchLabels<…>.Storage` of either label type (told apart by a cast, once per search).
    /// A storage is owned by one search at a time: the pool hands it from one to the next.
    private let free = Mutex<[any AnyObject & Sendable]>([])

    func take<Element: StampedLabel>(count: Int) -> SearchLabels<Element>.Storage {
        let found = free.withLock { free -> SearchLabels<Element>.Storage? in
            guard let i = free.lastIndex(where: { ($0 as? SearchLabels<Element>.Storage).map { $0.capacity >= count } ?? false }) else { return nil }
            return free.remove(at: i) as? SearchLabels<Element>.Storage
        }
        let s = found ?? SearchLabels<Element>.Storage(capacity: count)
        s.begin()
        return s
    }

    func give(_ s: any AnyObject & Sendable) {
        free.withLock { free in
            if free.count < Self.maxKept { free.append(s) }
        }
    }
}
