#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A costing's edge costs, index `edge << 1 | reversed`, each computed by the cost formula the
/// first time a search asks for it (or all at once, `fill`). The storage comes from `calloc`:
/// 0 means "not computed yet" (a real cost is ≥ 0.001 or infinity), and pages no search reads
/// never become resident, so a plan on a large map costs only the edges it looks at — instead
/// of 8 bytes per edge and mode in the map file and a full pass at load.
///
/// Two searches sharing one costing on different threads may both compute an edge and store
/// the same value; a 4-byte aligned store is never torn, so either sees a correct cost.
@usableFromInline final class EdgeCostCache: @unchecked Sendable {
    @usableFromInline let pointer: UnsafeMutablePointer<Float>
    @usableFromInline let count: Int

    init(count: Int) {
        self.count = count
        let raw = calloc(max(count, 1), MemoryLayout<Float>.stride)!
        pointer = raw.bindMemory(to: Float.self, capacity: max(count, 1))
    }

    /// A cache holding these costs already.
    convenience init(_ costs: [Float]) {
        self.init(count: costs.count)
        costs.withUnsafeBufferPointer { pointer.update(from: $0.baseAddress!, count: costs.count) }
    }

    deinit { free(pointer) }
}
