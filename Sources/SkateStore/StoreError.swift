import FoundationEssentials
import Glibc
import SkateCore

/// Everything the store refuses, each with a one-line description fit for stderr.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    /// The database could not be opened or migrated.
    case cannotOpen(path: String, reason: String)
    /// A report inside a school / hospital / kindergarten area.
    case noReportZone(kind: ZoneKind, name: String)
    /// No hazard with this id.
    case unknownHazard(id: Int64)
    /// Severity outside 1…3.
    case badSeverity(Int)
    /// Reporter name empty or too long.
    case badReporter(String)
    /// SQLite refused a read or write on an open store (disk full, lock held too long…).
    case databaseFailed(path: String, reason: String)
    /// A coordinate or RMS value that is not finite or out of range.
    case badValue(String)
    /// A place, spot or route name that is empty, too long or reads as coordinates (the text says which).
    case badName(String)
    /// A name already in use (the stored display name).
    case duplicateName(what: String, name: String)
    /// No saved place or route of this name.
    case unknownName(what: String, name: String)
    /// A saved route whose stored checksum does not match its content.
    case corruptRoute(name: String)

    public var description: String {
        switch self {
        case .cannotOpen(let p, let r): return "\(p): cannot open the store: \(r)"
        case .noReportZone(let kind, let name):
            let named = name.isEmpty ? "" : " (\(TerminalSafe.clean(name)))"
            return "reports are not accepted inside a \(kind.name) area\(named): no-report zone"
        case .databaseFailed(let p, let r): return "\(p): store error: \(r)"
        case .unknownHazard(let id): return "no hazard with id \(id)"
        case .badSeverity(let s): return "severity \(s) is out of range: use 1 (minor), 2 or 3 (severe)"
        case .badReporter(let r):
            return "reporter name '\(TerminalSafe.quoted(r, maxLength: HazardRules.maxReporterLength))' is not valid: use 1–\(HazardRules.maxReporterLength) printable characters"
        case .badValue(let what): return what
        case .badName(let why): return why
        case .duplicateName(let what, let name):
            return "a \(what) named '\(TerminalSafe.clean(name))' already exists: pick another name or rename it first"
        case .unknownName(let what, let name):
            return "no saved \(what) named '\(TerminalSafe.clean(String(name.prefix(RiderName.maxLength))))'"
        case .corruptRoute(let name):
            return "saved route '\(TerminalSafe.clean(name))' is corrupted (checksum mismatch): remove it with `routes rm` and save it again"
        }
    }
}

extension StoreError {
    /// A one-line reason for a file system error (`ErrorText`): the system's text for the POSIX
    /// error beneath a `CocoaError` ("File exists", "Permission denied"), else the error as text.
    static func reason(_ error: any Error) -> String { ErrorText.describe(error) }
}
