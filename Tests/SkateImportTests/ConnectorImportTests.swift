import Foundation
import Testing
import SkateCore
import SkateImport

/// Lifts and escalators become connectors; odd access tags never break an import.
@Suite struct ConnectorImportTests {
    /// A local grid: (east, north) metres from 43.74 N 7.42 E.
    static let origin = Coordinate(lat: 43.74, lon: 7.42)
    static func at(_ east: Double, _ north: Double) -> Coordinate {
        LocalProjection(origin: origin).unproject(x: east, y: north)
    }

    static func tags(_ d: [String: String]) -> OSMTags { OSMTags(d.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }) }

    struct Builder {
        var c = MapCompiler(options: ImportOptions(name: "t"))
        mutating func node(_ id: Int64, _ east: Double, _ north: Double, _ t: [String: String] = [:]) {
            let p = ConnectorImportTests.at(east, north)
            c.node(id: id, lat: p.lat, lon: p.lon, tags: ConnectorImportTests.tags(t))
        }
        mutating func way(_ id: Int64, _ refs: [Int64], _ t: [String: String]) { c.way(id: id, refs: refs, tags: ConnectorImportTests.tags(t)) }
        mutating func build() -> SkateMap { c.build(dem: nil, sources: ["test"]) }
    }

    func connectors(_ m: SkateMap) -> [Int] { (0..<m.edgeCount).filter { m.flags(ofEdge: $0).contains(.connector) } }

    @Test func aLiftNodeBetweenFloorsIsSplitAndJoinedByAConnector() throws {
        var b = Builder()
        b.node(1, 0, 0); b.node(2, 50, 0, ["highway": "elevator", "name": "Ascenseur"]); b.node(3, 100, 0)
        b.way(10, [1, 2], ["highway": "footway"])
        b.way(11, [2, 3], ["highway": "footway", "layer": "-1"])
        let m = b.build()
        let cs = connectors(m)
        try #require(cs.count == 1)
        let e = cs[0]
        #expect(m.highway(ofEdge: e) == .elevator && m.name(ofEdge: e) == "Ascenseur" && m.edgeLength[e] == 0)
        #expect(m.edgeFrom[e] != m.edgeTo[e])
        #expect(m.nodeCount == 4, "one graph node per floor at the lift")
        // The footways no longer meet directly: only through the connector.
        let others = (0..<m.edgeCount).filter { $0 != e }
        let ends = others.map { Set([m.edgeFrom[$0], m.edgeTo[$0]]) }
        #expect(ends[0].isDisjoint(with: ends[1]))
    }

    @Test func aLoneLiftNodeFindsItsUpperLandingNearby() throws {
        // Place des Moulins' shape: an underground footway ends at the lift (node 5) and its node 4,
        // 2.5 m before, is shared with the street-level footway above.
        var b = Builder()
        b.node(1, -80, 0); b.node(4, -2.5, 0); b.node(5, 0, 0, ["highway": "elevator", "name": "Place des Moulins"]); b.node(6, -2.5, 40)
        b.way(20, [1, 4, 5], ["highway": "footway", "layer": "-1", "tunnel": "yes"])
        b.way(21, [6, 4], ["highway": "footway"])
        let m = b.build()
        let cs = connectors(m)
        try #require(cs.count == 1)
        #expect(abs(Double(m.edgeLength[cs[0]]) - 2.5) < 0.2)
        // The tunnel runs from 1 to the lift without touching the street footway.
        let tunnel = (0..<m.edgeCount).filter { m.edgeWayId[$0] == 20 }
        let street = (0..<m.edgeCount).filter { m.edgeWayId[$0] == 21 }
        let tunnelNodes = Set(tunnel.flatMap { [m.edgeFrom[$0], m.edgeTo[$0]] })
        let streetNodes = Set(street.flatMap { [m.edgeFrom[$0], m.edgeTo[$0]] })
        #expect(tunnelNodes.isDisjoint(with: streetNodes))
        #expect(tunnel.count == 1 && abs(Double(m.edgeLength[tunnel[0]]) - 80) < 0.5)
    }

    @Test func aLiftWayJoinsTheFootwaysItTouches() throws {
        var b = Builder()
        b.node(1, 0, 0); b.node(2, 3, 0); b.node(3, 3, 3); b.node(4, 0, 3); b.node(5, -40, 0); b.node(6, 40, 3)
        b.way(30, [1, 2, 3, 4, 1], ["highway": "elevator", "level": "0;1"])
        b.way(31, [5, 1], ["highway": "footway", "level": "0"])
        b.way(32, [3, 6], ["highway": "footway", "level": "1"])
        let m = b.build()
        let cs = connectors(m)
        #expect(cs.count == 1)
        #expect(cs.allSatisfy { m.edgeWayId[$0] == 30 })
    }

    @Test func escalatorsAreOneWayConnectorsAndCarryNoGrade() throws {
        var b = Builder()
        b.node(1, 0, 0); b.node(2, 20, 0)
        b.way(40, [1, 2], ["highway": "steps", "conveying": "backward", "opening_hours": "Mo-Fr 07:00-20:00"])
        let m = b.build()
        let f = m.flags(ofEdge: 0)
        #expect(f.contains(.connector) && f.contains(.onewayReverse) && f.contains(.limitedHours) && !f.contains(.steps))
        let d = MapDerived(map: m, routingTables: false)
        #expect(d.grade[0] == 0)
        #expect(abs(Double(d.tagSecondsFwd[0]) - ConnectorTiming.seconds(highway: .steps, length: Double(m.edgeLength[0]))) < 0.01)
    }

    @Test func oddAndConflictingTagsNeverBreakTheImport() throws {
        let odd: [[String: String]] = [
            ["highway": "primary", "foot": "no", "sidewalk": "both"], ["highway": "service", "access": "yes;no"],
            ["highway": "residential", "access": ";;", "foot": ""], ["highway": "motorway"], ["highway": "trunk_link", "sidewalk": "separate"],
            ["highway": "construction", "construction": "footway"], ["highway": "steps", "step_count": "-3", "ramp": "maybe"],
            ["highway": "steps", "conveying": "sideways", "step_count": "99999999999"], ["highway": "tertiary", "maxspeed": "fast", "tunnel": "building_passage"],
            ["highway": "footway", "foot": "use_sidepath", "level": "0;;1", "layer": "x"], ["highway": "elevator"],
        ]
        var b = Builder()
        for (i, t) in odd.enumerated() {
            b.node(Int64(100 + 2 * i), Double(i) * 30, 0, i == 10 ? ["highway": "elevator", "level": "??"] : [:])
            b.node(Int64(101 + 2 * i), Double(i) * 30, 25)
            b.way(Int64(500 + i), [Int64(100 + 2 * i), Int64(101 + 2 * i)], t)
        }
        let m = b.build()
        #expect(m.consistencyProblem() == nil)
        func decision(_ way: Int64) -> AccessDecision? {
            (0..<m.edgeCount).first { m.edgeWayId[$0] == way }.map { AccessModel.decision(of: m.flags(ofEdge: $0)) }
        }
        #expect(decision(500)?.reason == .footNoButSidewalk)
        #expect(decision(501)?.accessClass == .ok)
        #expect(decision(503)?.reason == .motorway)
        #expect(decision(505)?.reason == .construction)
        #expect(decision(508)?.reason == .roadTunnel)
        #expect(decision(509)?.reason == .footUseSidepath)
        #expect(m.stepCount(ofEdge: (0..<m.edgeCount).first { m.edgeWayId[$0] == 506 }!) == 0)
        #expect(decision(510) == nil, "a lift way with nothing to join is no edge")
    }
}
