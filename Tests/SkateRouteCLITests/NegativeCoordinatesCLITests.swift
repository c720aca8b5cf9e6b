import Foundation
@testable import skateroute
import Testing

/// South of the equator and west of Greenwich a "lat,lon" starts with "-", which the argument
/// parser took for an option: `plan --from "-33.87,151.21"` stopped with a usage line, so no rider
/// in Sydney, Buenos Aires or Cape Town could give a position. Every option that takes a place or
/// coordinates parses its value unconditionally.
@Suite struct NegativeCoordinatesCLITests {
    static let sydney = "-33.8688,151.2093"
    static let santiago = "-33.4489,-70.6693"

    /// Each command line with a negative position where a place or "lat,lon" goes.
    static let lines: [[String]] = [
        ["plan", "--from", sydney, "--to", santiago, "--near", sydney],
        ["rate", "--at", sydney, "butter"],
        ["hazards", "add", "--kind", "pothole", "--at", santiago],
        ["hazards", "list", "--near", santiago],
        ["synth", "--from", sydney, "--to", santiago, "--out", "/tmp/never-written"],
        ["ride", "--to", santiago],
        ["import", "--osm", "x.osm.pbf", "--bbox", "-34.0,-71.0,-33.0,-70.0"],
        ["spots", "--near", santiago],
        ["places", "add", "Home", "--at", santiago],
        ["search", "Plaza", "--near", santiago],
        ["downhills", "--near", santiago],
        ["routes", "save", "Commute", "--from", sydney, "--to", santiago],
    ]

    @Test(arguments: lines) func negativePositionsParse(_ line: [String]) throws {
        let command = try SkateRouteCommand.parseAsRoot(line)
        // The value arrived whole, not as an unknown option.
        let dump = String(describing: command)
        let expected = line.first { $0.hasPrefix("-3") }!
        #expect(dump.contains(expected), "\(dump)")
    }

    /// The value is the position, and a plan's ends read it as coordinates.
    @Test func planReadsTheSouthernStartAsItsCoordinates() throws {
        let plan = try #require(try SkateRouteCommand.parseAsRoot(["plan", "--from", Self.sydney, "--to", Self.santiago]) as? PlanCommand)
        #expect(plan.from == Self.sydney && plan.to == Self.santiago)
    }
}
