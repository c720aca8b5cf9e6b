import Dispatch

/// Runs independent, pure per-item work of an import on both cores (issue 31, seventh round).
enum ParallelMap {
    /// Threads an import's independent per-item passes use (the machine target has 2 cores).
    static let threads = 2
    /// Fewer items than this run on the calling thread: starting a thread costs more than they do.
    static let minItemsPerThread = 4_096

    /// `body(i)` for every `i` in `0..<count`, in index order in the result. `body` must be pure
    /// (it runs on several threads at once); each result lands in its own slot, so the array is
    /// the one a serial `map` gives.
    static func map<T>(_ count: Int, _ body: (Int) -> T) -> [T] {
        let parts = Swift.max(1, Swift.min(threads, count / minItemsPerThread))
        guard parts > 1 else { return (0..<count).map(body) }
        return withoutActuallyEscaping(body) { body in
            [T](unsafeUninitializedCapacity: count) { out, initialised in
                let job = Job(out: out.baseAddress!, body: body)
                DispatchQueue.concurrentPerform(iterations: parts) { p in
                    let lo = count * p / parts, hi = count * (p + 1) / parts
                    for i in lo..<hi { (job.out + i).initialize(to: job.body(i)) }
                }
                initialised = count
            }
        }
    }

    /// What the threads share: the output and the body; each thread writes only its own slots.
    private struct Job<T>: @unchecked Sendable {
        let out: UnsafeMutablePointer<T>
        let body: (Int) -> T
    }

    /// Starts `body` on another thread and returns at once; `wait()` gives its result. For one
    /// long pure job the calling thread can work beside (the terrain conditioner's sweeps, which
    /// must run in order on one core, while the map's places and towns are built).
    static func start<T>(_ body: @escaping () -> T) -> Pending<T> {
        let job = Pending<T>()
        let run = Job(out: job.slot, body: { _ in body() })
        DispatchQueue.global().async {
            run.out.initialize(to: run.body(0))
            job.done.signal()
        }
        return job
    }

    /// The result of a job `start` began; read once, with `wait()`.
    final class Pending<T>: @unchecked Sendable {
        fileprivate let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
        fileprivate let done = DispatchSemaphore(value: 0)
        private var taken = false

        /// Blocks until the job has finished, then returns its result (once).
        func wait() -> T {
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
}
