import FoundationEssentials
import SkateCore

/// What a saved place is for.
public enum SavedPlaceCategory: String, Sendable, CaseIterable, Equatable {
    case home, work, spot, shop, other

    /// "home|work|spot|shop|other", for help and error lines.
    public static var list: String { allCases.map(\.rawValue).joined(separator: "|") }
}

/// A place the rider saved by name (a rider spot is a place of category `spot`).
public struct SavedPlace: Sendable, Equatable {
    public var id: Int64
    /// The sanitised display name.
    public var name: String
    public var category: SavedPlaceCategory
    public var at: Coordinate
    public var note: String
    /// Private places never leave the machine (store exports skip them). Default: true.
    public var isPrivate: Bool
    public var createdAt: Date

    public init(id: Int64, name: String, category: SavedPlaceCategory, at: Coordinate, note: String, isPrivate: Bool, createdAt: Date) {
        self.id = id; self.name = name; self.category = category; self.at = at; self.note = note
        self.isPrivate = isPrivate; self.createdAt = createdAt
    }
}

/// A destination the rider planned to recently.
public struct RecentDestination: Sendable, Equatable {
    public var name: String
    public var at: Coordinate
    public var usedAt: Date
}

/// The rules every name the rider gives (places, spots, routes) follows.
public enum RiderName {
    /// Longest name kept (characters): a street-sign length, far above any real place name, and
    /// short enough for one list line in an 80-column terminal.
    public static let maxLength = 60
    /// Longest note kept (characters).
    public static let maxNoteLength = 200

    /// The name as stored: control characters and escape sequences removed (`TerminalSafe`),
    /// runs of white space collapsed, trimmed.
    public static func clean(_ raw: String) -> String {
        TerminalSafe.clean(raw).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The key names are unique by: accent-, case- and punctuation-insensitive ("Home" = "home").
    public static func folded(_ name: String) -> String {
        PlaceSearch.fold(name).split(separator: " ").joined(separator: " ")
    }

    /// The cleaned name, or a `StoreError.badName` saying why not (one line).
    public static func validate(_ raw: String, what: String) throws -> String {
        let name = clean(raw)
        if raw.count > 10 * maxLength || name.count > maxLength {
            throw StoreError.badName("\(what) name is \(raw.count) characters long: use 1–\(maxLength)")
        }
        guard !name.isEmpty, !folded(name).isEmpty else {
            throw StoreError.badName("\(what) name '\(name)' has no letters or digits: use 1–\(maxLength) characters")
        }
        if Coordinate(parsing: name) != nil {
            throw StoreError.badName("\(what) name '\(name)' reads as \"lat,lon\": pick a name with a word in it")
        }
        return name
    }

    /// A note cleaned like a name, refused beyond `maxNoteLength`.
    public static func validateNote(_ raw: String) throws -> String {
        let note = clean(raw)
        guard note.count <= maxNoteLength else {
            throw StoreError.badName("note is \(raw.count) characters long: use at most \(maxNoteLength)")
        }
        return note
    }
}
