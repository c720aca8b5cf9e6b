import Synchronization

/// A connection that one thread at a time may use: every use holds a mutex. Opened on first use
/// when made with an opener (a store's reader is not opened until something reads).
final class SerializedConnection: @unchecked Sendable {
    // @unchecked: `connection` is only read or written with `mutex` held.
    private let mutex = Mutex<Void>(())
    private var connection: SQLiteConnection?
    private let open: @Sendable () throws -> SQLiteConnection

    /// Wraps an open connection (no other reference to it may be kept).
    init(_ connection: SQLiteConnection) {
        self.connection = connection
        open = { throw SQLiteError.misuse("the connection was closed") }
    }

    /// Opens a connection with `open` at the first use; a failed open is tried again next time.
    init(opening open: @escaping @Sendable () throws -> SQLiteConnection) {
        connection = nil
        self.open = open
    }

    /// Runs `body` with the connection, holding the mutex: other threads wait.
    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        var outcome: Result<T, any Error>?
        mutex.withLock { _ in
            outcome = Result {
                if connection == nil { connection = try open() }
                return try body(connection!)
            }
        }
        return try outcome!.get()
    }

    /// True once the connection is open.
    var isOpen: Bool { mutex.withLock { _ in connection != nil } }
}
