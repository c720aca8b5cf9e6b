import Dispatch

/// Runs independent, pure per-item work on both cores: an import's passes and the landmark
/// tables' quantising (issue 31). Every result lands in its own slot or chunk, in index order,
/// so the output is the one a serial loop gives, whatever the threads.
package enum ParallelMap {
    /// Threads these passes use (the machine target has 2 cores).
    package static let threads = 2
    /// Fewer items than this run on the calling thread: starting a thread costs more than they do.
    package static let minItemsPerThread = 4_096

    /// `body(i)` for every `i` in `0..<count`, in index order in the result. `body` must be pure
    /// (it runs on several threads at once); each result lands in its own slot, so the array is
    /// the one a serial `map` gives. `grain`: the fewest items worth a thread of their own (1 for
    /// a few long items, such as one ride mode's costs over a whole map).
    package static func map<T>(_ count: Int, grain: Int = minItemsPerThread, _ body: (Int) -> T) -> [T] {
        let parts = self.parts(count, grain: grain)
        guard parts > 1 else { return (0..<count).map(body) }
        return withoutActuallyEscaping(body) { body in
            [T](unsafeUninitializedCapacity: count) { out, initialised in
                let job = Job(out: out.baseAddress!, body: body)
                DispatchQueue.concurrentPerform(iterations: parts) { p in
                    for i in range(p, of: parts, count) { (job.out + i).initialize(to: job.body(i)) }
                }
                initialised = count
            }
        }
    }

    /// `body` over consecutive ranges that split `0..<count` (one per thread, or one range for
    /// few items), and its results in range order: partial sums, counts or extremes a caller
    /// combines in that order. `body` must write nothing outside its own range.
    package static func chunks<T>(_ count: Int, _ body: (Range<Int>) -> T) -> [T] {
        let parts = self.parts(count)
        guard parts > 1 else { return [body(0..<count)] }
        return withoutActuallyEscaping(body) { body in
            [T](unsafeUninitializedCapacity: parts) { out, initialised in
                let job = Job(out: out.baseAddress!, body: { p in body(range(p, of: parts, count)) })
                DispatchQueue.concurrentPerform(iterations: parts) { p in (job.out + p).initialize(to: job.body(p)) }
                initialised = parts
            }
        }
    }

    /// Part `p` of `parts` near-equal consecutive ranges over `0..<count`.
    static func range(_ p: Int, of parts: Int, _ count: Int) -> Range<Int> { count * p / parts ..< count * (p + 1) / parts }

    /// How many threads `count` items are worth, `grain` items being worth one.
    static func parts(_ count: Int, grain: Int = minItemsPerThread) -> Int { Swift.max(1, Swift.min(threads, count / grain)) }

    /// Starts `body` on another thread and returns at once; `wait()` gives its result. For one
    /// long pure job the calling thread can work beside (the terrain conditioner's sweeps, which
    /// must run in order on one core, while the map's places and towns are built).
    package static func start<T>(_ body: @escaping () -> T) -> Pending<T> {
        let job = Pending<T>()
        let run = Job(out: job.slot, body: { _ in body() })
        DispatchQueue.global().async {
            run.out.initialize(to: run.body(0))
            job.done.signal()
        }
        return job
    }

    /// The result of a job `start` began; read once, with `wait()`.
    package final class Pending<T>: @unchecked Sendable {
        fileprivate let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
        fileprivate let done = DispatchSemaphore(value: 0)
        private var taken = false

        /// Blocks until the job has finished, then returns its result (once).
        package func wait() -> T {
            precondition(!taken, "a background job's result is read once")
            done.wait()
            taken = true
            return slot.move()
        }

        deinit {
            // A job never waited for is waited for here, so its slot is never freed under it.
            if !taken { done.wait(); slot.deinitialize(count: 1) }
            slot.deallocate()
        }
    }

    /// What the threads share: the output and the body; each thread writes only its own slots.
    private struct Job<T>: @unchecked Sendable {
        let out: UnsafeMutablePointer<T>
        let body: (Int) -> T
    }
}
