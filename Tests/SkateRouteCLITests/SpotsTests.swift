import Foundation
import SkateCore
import SkateImport
@testable import skateroute
import SkateStore
import SkateTestSupport
import Testing

/// Spots from a tiny drawn map: what the importer keeps as a spot, and `trickSpotCrawl` naming the
/// spot it threads in every output format.
@Suite struct SpotsTests {
    static let art = """
    A-----B-----C
    |           |
    D-----E-----F
    """
    static let street: [String: String] = ["highway": "residential", "surface": "asphalt"]

    static func make() -> AsciiMap {
        AsciiMap(art, ways: [("ABC", street), ("ADEFC", street)],
                 places: ["E": ["name": "Bowl Park", "leisure": "skatepark"],
                          "D": ["name": "Hubba Ledge", "skateboard": "designated"],
                          "F": ["name": "No Skate Plaza", "skateboard": "no", "amenity": "fountain"],
                          "B": ["name": "Town Square", "place": "square"]])
    }

    @Test func importerKeepsTaggedSpots() {
        let m = Self.make().map
        let saved = [SavedPlace(id: 1, name: "My Rail", category: .spot, at: AsciiMap.origin, note: "", isPrivate: true, createdAt: Date()),
                     SavedPlace(id: 2, name: "Home", category: .home, at: AsciiMap.origin, note: "", isPrivate: true, createdAt: Date())]
        let spots = SpotEntry.all(map: m, saved: saved)
        let byName = Dictionary(uniqueKeysWithValues: spots.map { ($0.name, $0) })
        #expect(byName["Bowl Park"]?.kind == "skatepark")
        #expect(byName["Hubba Ledge"]?.category == "skateboard=designated")
        #expect(byName["Town Square"]?.kind == "square")
        #expect(byName["No Skate Plaza"] == nil, "skateboard=no is a ban, not a spot")
        #expect(byName["My Rail"]?.kind == "own" && byName["My Rail"]?.isPrivate == true)
        #expect(byName["Home"] == nil, "only saved places of category spot are spots")
    }

    @Test func trickSpotCrawlNamesItsSpotInEveryFormat() throws {
        let a = Self.make()
        let plan = try Planner(map: a.map).plan(from: a.nodes["A"]!, to: a.nodes["C"]!, mode: .trickSpotCrawl)
        let spot = try #require(plan.spots.first, "the crawl threads a spot: \(plan.notes)")
        #expect(["Bowl Park", "Hubba Ledge", "Town Square"].contains(spot))
        #expect(PlanFormats.text(plan, from: "A", to: "C").contains("spot: \(spot)"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(PlanFormats.json(plan).utf8)) as? [String: Any])
        #expect((json["spots"] as? [String]) == plan.spots)
        let geo = try #require(try JSONSerialization.jsonObject(with: Data(PlanFormats.geojson(plan).utf8)) as? [String: Any])
        #expect(((geo["skateroute"] as? [String: Any])?["spots"] as? [String]) == plan.spots)
        #expect(PlanFormats.gpx(plan, name: "A → C").contains("<desc>spot: \(spot)</desc>"))
        // Other modes name no spot.
        let plain = try Planner(map: a.map).plan(from: a.nodes["A"]!, to: a.nodes["C"]!, mode: .smoothest)
        #expect(plain.spots.isEmpty && !PlanFormats.gpx(plain, name: "x").contains("spot:"))
    }

    @Test func trickSpotCrawlThreadsTheRidersOwnSpot() throws {
        // No tagged spot on this map: only the rider's own, at E on the far side of the loop.
        let a = AsciiMap(Self.art, ways: [("ABC", Self.street), ("ADEFC", Self.street)])
        let bare = try Planner(map: a.map).plan(from: a.nodes["A"]!, to: a.nodes["C"]!, mode: .trickSpotCrawl)
        #expect(bare.spots.isEmpty)
        var planner = Planner(map: a.map)
        planner.ownSpots = [("My Rail", a.nodes["E"]!)]
        let plan = try planner.plan(from: a.nodes["A"]!, to: a.nodes["C"]!, mode: .trickSpotCrawl)
        #expect(plan.spots == ["My Rail"], "\(plan.notes)")
        #expect(plan.distance > bare.distance, "the crawl detours round by E")
    }
}
