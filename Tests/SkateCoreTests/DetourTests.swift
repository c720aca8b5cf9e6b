import Foundation
import SkateCore
import SkateImport
import SkateTestSupport
import Testing

/// Honest detours (issue 26, item 4): every plan knows the shortest legal walk, the direct line
/// and the crow-flies distance; a detour says so in every format and offers the direct line.
@Suite struct DetourTests {
    /// A → B is a 200 m road tunnel (no sidewalk); the only legal way climbs round by C and D, 800 m.
    static func tunnelMap() -> AsciiMap {
        let art = "C-------D\n" + String(repeating: "|       |\n", count: 11) + "A-------B"
        return AsciiMap(art, ways: [
            ("AB", ["highway": "secondary", "tunnel": "yes", "name": "Tunnel Road", "surface": "asphalt"]),
            ("ACDB", ["highway": "residential", "surface": "asphalt", "name": "Hill Road"]),
        ])
    }

    @Test("direct street a road tunnel, legal way 4× longer: the plan carries detour and offers the tunnel line labelled not legal")
    func tunnelDetour() throws {
        let m = Self.tunnelMap()
        let p = try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest, alternatives: 1)
        #expect(p.legal && abs(p.distance - 800) < 10, "route \(p.distance) m")
        let r = try #require(p.walkReference)
        #expect(abs((r.directM ?? 0) - 200) < 5 && !r.directLegal, "\(r)")
        #expect(abs((r.shortestWalkM ?? 0) - 800) < 10 && abs(r.crowFliesM - 200) < 5, "\(r)")
        let d = try #require(p.detour, "no detour on a route 4× the direct line")
        #expect(abs(d.directRatio - 4) < 0.2 && d.why == [.roadTunnel], "\(d)")
        let offered = p.alternatives.filter { $0.label == RoutePlan.notLegalLabel }
        #expect(offered.count == 1, "\(p.alternatives.map(\.label))")
        if let tunnel = offered.first {
            #expect(abs(tunnel.distance - 200) < 5 && !tunnel.legal, "\(tunnel.distance) m")
        }
        // Every format says so.
        let text = PlanFormats.text(p, from: "A", to: "B")
        #expect(text.contains("detour: ") && text.contains("not skateable: road tunnel") && text.contains("(not legal): "), "\(text)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(PlanFormats.json(p).utf8)) as? [String: Any])
        let dj = try #require(json["detour"] as? [String: Any])
        #expect(dj["why"] as? [String] == ["road tunnel"] && dj["ratio"] != nil && dj["shortest_walk_m"] != nil && dj["extra_climb_m"] != nil, "\(dj)")
        let alts = try #require(json["alternatives"] as? [[String: Any]])
        #expect(alts.contains { $0["label"] as? String == "not legal" })
        let geo = PlanFormats.geojson(p)
        #expect(geo.contains("\"road tunnel\"") && geo.contains("\"not legal\""))
        let gpx = PlanFormats.gpx(p, name: "A to B")
        #expect(gpx.contains("detour: ") && gpx.contains("(not legal): A to B"))
    }

    @Test("without alternatives the detour is still said, and nothing is offered")
    func detourWithoutAlternatives() throws {
        let m = Self.tunnelMap()
        let p = try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        #expect(p.detour != nil && p.alternatives.isEmpty)
    }

    @Test("a straight street is no detour, yet the plan knows its walk, direct and crow-flies lines")
    func noDetourOnAStraightStreet() throws {
        let m = AsciiMap("A-------B", ways: [("AB", ["highway": "residential", "surface": "asphalt"])])
        let p = try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest, alternatives: 1)
        #expect(p.detour == nil && p.alternatives.allSatisfy { $0.label.isEmpty })
        let r = try #require(p.walkReference)
        #expect(abs((r.shortestWalkM ?? 0) - 200) < 5 && r.directLegal && abs(r.crowFliesM - 200) < 5, "\(r)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(PlanFormats.json(p).utf8)) as? [String: Any])
        #expect(json["detour"] is NSNull && json["shortest_walk_m"] as? Double != nil)
    }

    @Test("a route more than twice the walk whose direct line is stairs says walk, stairs")
    func stairsDetour() throws {
        // A → B: 100 m of stairs; the rideable way round by C and D is 500 m.
        let art = "C---D\n" + String(repeating: "|   |\n", count: 7) + "A---B"
        let m = AsciiMap(art, ways: [
            ("AB", ["highway": "steps"]),
            ("ACDB", ["highway": "residential", "surface": "asphalt"]),
        ])
        let p = try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest, alternatives: 1)
        let d = try #require(p.detour, "route \(p.distance) m, walk \(String(describing: p.walkReference))")
        #expect(d.why == [.stairs] && d.ratio > 2, "\(d)")
        #expect(p.alternatives.contains { $0.label == RoutePlan.walkLabel && $0.distance < 150 }, "\(p.alternatives.map { ($0.label, $0.distance) })")
    }

    @Test("ShortestLine finds the shortest metres, not the cheapest ride")
    func shortestLineIsShortest() throws {
        let m = Self.tunnelMap()
        let a = try #require(m.map.nearestEdge(to: m.nodes["A"]!)), b = try #require(m.map.nearestEdge(to: m.nodes["B"]!))
        let any = try #require(ShortestLine.path(map: m.map, from: a, to: b, allowed: { _ in true }))
        #expect(abs(any.length - 200) < 5, "\(any.length)")
        let legs = any.legs
        #expect(legs.allSatisfy { m.map.flags(ofEdge: $0.edge).contains(.tunnel) })
    }
}
