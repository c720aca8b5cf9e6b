import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// `skateroute places …`: the rider's saved places (usable as `plan --from/--to`) and recents.
struct PlacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "Save, list, rename and remove your own places; list recent destinations.",
        discussion: "Saved names work in `plan --from/--to` and rank before the map's names.",
        subcommands: [PlacesAddCommand.self, PlacesListCommand.self, PlacesRemoveCommand.self,
                      PlacesRenameCommand.self, PlacesRecentCommand.self],
        defaultSubcommand: PlacesListCommand.self
    )
}

struct PlacesAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Save a place under a name.")

    @Argument(help: "The name (1–\(RiderName.maxLength) characters; unique, case- and accent-insensitive).") var name: String
    @Option(parsing: .unconditional, help: "Where: \"lat,lon\" in degrees.") var at: String?
    @Option(name: .customLong("here-from"), help: "Where: the position of a map place or another saved place.") var hereFrom: String?
    @Option(help: "One of \(SavedPlaceCategory.list).") var category: String = SavedPlaceCategory.other.rawValue
    @Option(help: "A short note (≤ \(RiderName.maxNoteLength) characters).") var note: String = ""
    @Flag(help: "Mark the place as shareable (places are private by default and never leave the machine).") var shared = false
    @OptionGroup var mapOption: MapOption
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        guard let cat = SavedPlaceCategory(rawValue: category.lowercased()) else {
            throw fail("unknown category '\(TerminalSafe.clean(String(category.prefix(40))))': use one of \(SavedPlaceCategory.list)")
        }
        let store = try storeOptions.open()
        let now = try storeOptions.instant()
        let position: Coordinate
        switch (at, hereFrom) {
        case (let a?, nil): position = try CLIParse.coordinate(a, option: "--at")
        case (nil, let p?):
            let map = try mapOption.load()
            let saved = SavedPlaceResolver(try CLIParse.store { try store.places() }, map: map)
            position = try resolveAnyPlace(p, map: map, saved: saved, role: "--here-from").at
        default: throw fail("give exactly one of --at \"lat,lon\" or --here-from PLACE")
        }
        let p = try CLIParse.store {
            try store.addPlace(name: name, category: cat, at: position, note: note, isPrivate: !shared, now: now)
        }
        let cleaned = p.name != name.trimmingWhitespace() ? " (control characters and extra spaces removed)" : ""
        CLIParse.emit("saved '\(p.name)' (\(p.category.rawValue)) at \(p.at)\(cleaned)")
    }
}

struct PlacesListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the saved places on the map (--all: on every map).")
    @Flag(help: "Print JSON (keys sorted).") var json = false
    @Flag(help: "List the places of every map, not only those the map's area holds.") var all = false
    @OptionGroup var mapOption: MapOption
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.openForReading()
        let every = try CLIParse.store { try store.places() }
        let (list, others) = all ? (every, []) : PlacesByMap.split(every, map: try mapOption.load())
        if json {
            CLIParse.emit(DocumentSchema.document("places", ["places": .array(list.map(placeJSON)), "on_other_maps": .int(Int64(others.count))]).text(pretty: true))
            return
        }
        let more = others.isEmpty ? "" : "; \(others.count) on other maps (places list --all)"
        if list.isEmpty { CLIParse.emit("no saved places on this map (add one with `skateroute places add NAME --at \"lat,lon\"`)\(more)"); return }
        defer { if !more.isEmpty { CLIParse.emit(String(more.dropFirst(2))) } }
        for p in list {
            let note = p.note.isEmpty ? "" : " — \(TerminalSafe.clean(p.note))"
            CLIParse.emit("\(TerminalSafe.clean(p.name))  [\(p.category.rawValue)\(p.isPrivate ? ", private" : "")]  \(p.at)\(note)")
        }
    }
}

func placeJSON(_ p: SavedPlace) -> JSONText {
    .object(["name": .string(p.name), "category": .string(p.category.rawValue), "lat": .rounded(p.at.lat, 7),
             "lon": .rounded(p.at.lon, 7), "note": .string(p.note), "private": .bool(p.isPrivate),
             "created": .string(ISO8601Time.format(p.createdAt.timeIntervalSince1970))])
}

struct PlacesRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a saved place.")
    @Argument(help: "The place's name.") var name: String
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.open()
        try CLIParse.store { try store.removePlace(named: name) }
        CLIParse.emit("removed '\(TerminalSafe.clean(RiderName.clean(name)))'")
    }
}

struct PlacesRenameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a saved place.")
    @Argument(help: "The current name.") var old: String
    @Argument(help: "The new name.") var new: String
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.open()
        let n = try CLIParse.store { try store.renamePlace(old, to: new) }
        CLIParse.emit("renamed '\(TerminalSafe.clean(String(RiderName.clean(old).prefix(RiderName.maxLength))))' to '\(n)'")
    }
}

struct PlacesRecentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "recent",
                                                    abstract: "The last \(SkateStore.recentLimit) destinations planned to, newest first.")
    @Flag(help: "Print JSON (keys sorted).") var json = false
    @Flag(help: "List the destinations of every map, not only those the map's area holds.") var all = false
    @OptionGroup var mapOption: MapOption
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.open()
        var list = try CLIParse.store { try store.recentDestinations() }
        if !all {
            let map = try mapOption.load()
            list = list.filter { PlacesByMap.holds(map, $0.at) }
        }
        if json {
            CLIParse.emit(DocumentSchema.document("recent", ["recent": .array(list.map {
                .object(["name": .string($0.name), "lat": .rounded($0.at.lat, 7), "lon": .rounded($0.at.lon, 7),
                         "used": .string(ISO8601Time.format($0.usedAt.timeIntervalSince1970))])
            })]).text(pretty: true))
            return
        }
        if list.isEmpty { CLIParse.emit("no recent destinations"); return }
        for r in list { CLIParse.emit("\(TerminalSafe.clean(r.name))  \(r.at)  \(ISO8601Time.format(r.usedAt.timeIntervalSince1970))") }
    }
}
