import Testing
import SkateCore
import SkateTestSupport

/// `Planner.reroute`: a rider heading away from the destination rides on rather than turning round,
/// when the forward line costs at most `forwardRerouteSlack` extra metres.
@Suite("Planner reroute")
struct PlannerRerouteTests {
    static let street = ["highway": "residential", "surface": "asphalt"]

    /// A street A–B with the destination D west of A and a loop B–F–E–A back round (250 m extra).
    static func loop(extraRows: Int) -> AsciiMap {
        let pad = String(repeating: "|       |\n      ", count: extraRows)
        return AsciiMap("""
        D-----A-------B
              \(pad)|       |
              E-------F
        """, ways: [("DA", street), ("AB", street), ("BF", street), ("FE", street), ("EA", street)])
    }

    static func firstBearing(_ p: RoutePlan) -> Double {
        let a = p.geometry[0]
        let b = p.geometry.first { Geo.distance(a, $0) >= 15 } ?? p.geometry.last!
        return Geo.bearing(a, b)
    }

    static func midpoint(_ m: AsciiMap) -> Coordinate {
        let a = m.nodes["A"]!, b = m.nodes["B"]!
        return Coordinate(lat: (a.lat + b.lat) / 2, lon: (a.lon + b.lon) / 2)
    }

    @Test("heading east away from D: the reroute rides on round the loop instead of a U-turn")
    func ridesOn() throws {
        let m = Self.loop(extraRows: 0)
        let planner = Planner(map: m.map)
        let here = Self.midpoint(m), dest = m.nodes["D"]!
        let noHeading = try planner.reroute(from: here, heading: nil, to: dest, mode: .smoothest)
        let east = try planner.reroute(from: here, heading: 90, to: dest, mode: .smoothest)
        let west = try planner.reroute(from: here, heading: 270, to: dest, mode: .smoothest)
        // Without a heading (and heading west) the best line goes straight back west.
        #expect(abs(Geo.turnAngle(from: 270, to: Self.firstBearing(noHeading))) < 30)
        #expect(west.distance == noHeading.distance)
        // Heading east it carries on east, and pays for it in metres (B–F–E–A: 250 m more).
        #expect(abs(Geo.turnAngle(from: 90, to: Self.firstBearing(east))) < 30)
        #expect(east.distance > noHeading.distance + 200 && east.distance <= noHeading.distance + Planner.forwardRerouteSlack)
        #expect(!Planner.startsBackwards(east, heading: 90))
        #expect(Planner.startsBackwards(noHeading, heading: 90))
    }

    @Test("a forward line longer than the slack is not taken: the rider is turned round")
    func slackBounds() throws {
        // 16 extra rows = 400 m more each way down and up: the loop adds ~1,050 m > 600 m.
        let m = Self.loop(extraRows: 16)
        let planner = Planner(map: m.map)
        let here = Self.midpoint(m), dest = m.nodes["D"]!
        let east = try planner.reroute(from: here, heading: 90, to: dest, mode: .smoothest)
        let best = try planner.plan(from: here, to: dest, mode: .smoothest)
        #expect(east.distance == best.distance)
        #expect(Planner.startsBackwards(east, heading: 90))
    }
}
