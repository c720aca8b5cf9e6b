import Foundation
import SkateCore
@testable import SkateStore
import Testing

@Suite struct PlacesStoreTests {
    let here = Coordinate(lat: 43.7384, lon: 7.4246)

    @Test func namesAreUniqueCaseAndAccentInsensitive() throws {
        let t = try TempStore()
        try t.store.addPlace(name: "Café Spot", category: .spot, at: here, now: t0)
        for dup in ["cafe spot", "CAFÉ  SPOT", " Cafe-Spot "] {
            #expect(throws: StoreError.duplicateName(what: "place", name: "Café Spot")) {
                try t.store.addPlace(name: dup, category: .other, at: here, now: t0)
            }
        }
        #expect(try t.store.places().count == 1)
        #expect(try t.store.places()[0].isPrivate, "places are private by default")
    }

    @Test func hostileNamesAreCleanedOrRefusedInOneLine() throws {
        let t = try TempStore()
        let p = try t.store.addPlace(name: "\u{1B}[31mEvil\u{07}\u{202E} Ledge\n", category: .spot, at: here, now: t0)
        #expect(p.name == "Evil Ledge")
        #expect(try t.store.place(named: "evil ledge")?.name == "Evil Ledge")
        let long = String(repeating: "x", count: 10_000)
        for bad in [long, "\u{1B}[2J\u{1B}]0;title\u{07}", "   ", "43.7,7.4"] {
            do {
                try t.store.addPlace(name: bad, category: .other, at: here, now: t0)
                Issue.record("accepted '\(bad.prefix(20))'")
            } catch let e as StoreError {
                #expect(!e.description.contains("\n") && !e.description.contains("\u{1B}"))
                #expect(e.description.count < 200, "the error line stays short: \(e.description.count)")
            }
        }
        #expect(try t.store.places().map(\.name) == ["Evil Ledge"])
    }

    @Test func renameAndRemove() throws {
        let t = try TempStore()
        try t.store.addPlace(name: "Home", category: .home, at: here, now: t0)
        try t.store.addPlace(name: "Work", category: .work, at: here, now: t0)
        #expect(throws: StoreError.duplicateName(what: "place", name: "Work")) { try t.store.renamePlace("home", to: "WORK") }
        #expect(try t.store.renamePlace("home", to: "Home Sweet Home") == "Home Sweet Home")
        // Changing only the case of a name is a rename, not a duplicate.
        #expect(try t.store.renamePlace("work", to: "WORK") == "WORK")
        #expect(throws: StoreError.unknownName(what: "place", name: "home")) { try t.store.removePlace(named: "home") }
        try t.store.removePlace(named: "home sweet home")
        #expect(try t.store.places().map(\.name) == ["WORK"])
    }

    @Test func recentsKeepTheLastTwentyDistinct() throws {
        let t = try TempStore()
        for i in 0..<25 {
            try t.store.recordDestination(name: "Place \(i)", at: here, now: t0 + Double(i) * minute)
        }
        // Planning to an old one again moves it to the front rather than duplicating it.
        try t.store.recordDestination(name: "place 10", at: here, now: t0 + hour)
        let r = try t.store.recentDestinations()
        #expect(r.count == SkateStore.recentLimit)
        #expect(r.first?.name == "place 10")
        #expect(r.filter { RiderName.folded($0.name) == "place 10" }.count == 1)
        #expect(!r.contains { $0.name == "Place 4" }, "the oldest fell off")
        #expect(r.contains { $0.name == "Place 24" })
    }
}

@Suite struct SavedRouteStoreTests {
    func route(_ name: String) -> SavedRoute {
        SavedRoute(name: name, mode: "smoothest", fromName: "A", toName: "B", from: Coordinate(lat: 43.73, lon: 7.42),
                   to: Coordinate(lat: 43.74, lon: 7.43), mapIdentity: "ascii@0123456789abcdef",
                   planJSON: "{\"mode\":\"smoothest\",\"distance_m\":350}", createdAt: t0)
    }

    @Test func roundTripAndEveryTamperedFieldIsRefused() throws {
        let t = try TempStore()
        try t.store.saveRoute(route("Loop"))
        #expect(try t.store.savedRoute(named: "loop") == route("Loop"))
        #expect(throws: StoreError.duplicateName(what: "route", name: "Loop")) { try t.store.saveRoute(route("LOOP")) }
        let edits = ["planJSON = replace(planJSON, '350', '351')", "mapIdentity = 'ascii@ffff'", "toLat = 43.75",
                     "mode = 'nightSafe'", "fromName = 'Z'", "planJSON = NULL", "fromLat = 'text'"]
        for (i, edit) in edits.enumerated() {
            let name = "R\(i)"
            try t.store.saveRoute(route(name))
            // NOT NULL columns: drop the constraint's effect by writing through a raw statement that may fail.
            do {
                try t.store.db.write { db in try db.execute(sql: "UPDATE savedRoute SET \(edit) WHERE name = ?", arguments: [name]) }
            } catch { continue }  // the schema itself refused the edit (NULL into NOT NULL): nothing to detect
            #expect(throws: StoreError.corruptRoute(name: name), "\(edit)") { try t.store.savedRoute(named: name) }
            #expect(try t.store.savedRoutes().first { $0.route.name == name }?.intact == false)
        }
        #expect(try t.store.savedRoute(named: "Loop") == route("Loop"), "untouched rows stay intact")
    }
}

@Suite struct RideIndexStoreTests {
    @Test func confirmationsByOthersAndTheRideIndex() throws {
        let t = try TempStore()
        for i in 0..<11 {
            // 100 m apart: separate hazards, not merged confirmations.
            let at = Coordinate(lat: 43.73 + Double(i) * 0.001, lon: 7.42)
            let c = try t.store.addHazard(HazardReport(kind: .pothole, position: at, reporter: "me"), zones: nil, now: t0)
            if i < 10 { _ = try t.store.confirmHazard(id: c.state.hazard.id, reporter: "rider\(i)", now: t0 + Double(i) * day) }
        }
        // Someone else's hazard confirmed by me does not count for me.
        let theirs = try t.store.addHazard(HazardReport(kind: .gravel, position: Coordinate(lat: 43.70, lon: 7.40), reporter: "them"), zones: nil, now: t0)
        _ = try t.store.confirmHazard(id: theirs.state.hazard.id, reporter: "me", now: t0)
        let dates = try t.store.hazardsConfirmedByOthers(reporter: "me")
        #expect(dates.count == 10)
        #expect(dates.last == t0 + 9 * day)
        #expect(try t.store.hazardsConfirmedByOthers(reporter: "them").count == 1)

        let r = RideRecord(rideId: "a", path: "/x/a.ndjson", startEpoch: 1, map: "Monaco", mode: "free", distance: 1000, duration: 300,
                           movingTime: 250, climb: 10, descent: 20, crustyMetres: 5, maxSpeed: 6, complete: false)
        try t.store.indexRide(IndexedRide(record: r, fileSize: 10, fileModified: 2))
        var r2 = r
        r2.distance = 1200
        try t.store.indexRide(IndexedRide(record: r2, fileSize: 11, fileModified: 3))
        #expect(try t.store.indexedRides() == [IndexedRide(record: r2, fileSize: 11, fileModified: 3)], "re-indexing replaces the row")
        var bad = r
        bad.rideId = "nan"
        bad.distance = .nan
        #expect(throws: StoreError.self) { try t.store.indexRide(IndexedRide(record: bad, fileSize: 1, fileModified: 1)) }
    }
}
