import Synchronization

/// The units that text a person reads uses for distances, lengths and speeds. Machine formats
/// (JSON, GeoJSON, GPX, NDJSON ride logs, CSV) are always metric; grades stay percent.
public enum UnitSystem: String, Sendable, CaseIterable {
    case metric, imperial

    /// A per-task override, for tests and scoped work:
    /// `UnitSystem.$current.withValue(.imperial) { … }`. nil: use `processDefault`.
    @TaskLocal public static var current: UnitSystem?

    /// Set once by the CLI from the effective settings (any thread may read it); read by work
    /// that has no task locals (DispatchQueue workers, such as the TUI's plan and search workers).
    private static let storedDefault = Mutex<UnitSystem>(.metric)

    /// The process-wide default: what `active` answers outside any `$current.withValue` scope.
    public static var processDefault: UnitSystem {
        get { storedDefault.withLock { $0 } }
        set { storedDefault.withLock { $0 = newValue } }
    }

    /// The units in force here: the task's override, else the process-wide default.
    public static var active: UnitSystem { current ?? processDefault }
}
