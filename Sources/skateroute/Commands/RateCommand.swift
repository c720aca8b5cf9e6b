import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// `skateroute rate --at "lat,lon" butter|okay|crusty`: rate the surface of the nearest street.
struct RateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate",
        abstract: "Rate the surface of the nearest rideable street: butter, okay or crusty."
    )
    /// Farthest a rating snaps to a street (metres): GPS error plus half a wide street.
    static let snapRadius: Double = 30

    @Option(parsing: .unconditional, help: "Position \"lat,lon\" in degrees.") var at: String
    @Argument(help: "butter, okay or crusty.") var rating: String
    @OptionGroup var reporter: ReporterOption
    @OptionGroup var store: StoreOptions
    @OptionGroup var mapOption: MapOption

    func run() throws {
        guard let r = SurfaceRating(name: rating) else {
            throw fail("unknown rating '\(TerminalSafe.clean(rating))': use butter, okay or crusty")
        }
        let position = try CLIParse.coordinate(at, option: "--at")
        let map = try mapOption.load()
        guard let snap = map.nearestEdge(to: position, maxDistance: Self.snapRadius, where: map.isRideable) else {
            throw fail("no rideable street within \(Int(Self.snapRadius)) m of \(position)")
        }
        let key = EdgeKey(map: map, edge: snap.edge)
        try store.change { db, now in try db.rate(key, rating: r, reporter: reporter.name, now: now) }
        let name = TerminalSafe.clean(map.name(ofEdge: snap.edge))
        let street = name.isEmpty ? "an unnamed \(map.highway(ofEdge: snap.edge).osmValue)" : name
        CLIParse.emit("rated \(street) (way \(key.wayId)) \(r.rawValue), \(UnitFormatter.length(snap.distance)) from \(position)")
    }
}
