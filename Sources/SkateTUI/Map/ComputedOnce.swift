import Synchronization

/// A value computed on first use and then kept (issue 31): a pass over a whole region's map
/// (the wide-zoom road lists, the town ranking, the skateability bytes) is paid when a screen
/// first needs it, not before the first frame. Safe to read from any thread; the first reader
/// computes, the others wait for it.
final class ComputedOnce<Value: Sendable>: Sendable {
    private let make: @Sendable () -> Value
    private let state = Mutex<Value?>(nil)

    init(_ make: @escaping @Sendable () -> Value) { self.make = make }

    /// An already known value.
    init(value: Value) {
        make = { value }
        state.withLock { $0 = value }
    }

    /// The value, computed now when nobody has asked for it before.
    var value: Value {
        state.withLock { v in
            if let v { return v }
            let x = make()
            v = x
            return x
        }
    }

    /// Whether the value has been computed (for tests of what start-up skips).
    var isComputed: Bool { state.withLock { $0 != nil } }
}
