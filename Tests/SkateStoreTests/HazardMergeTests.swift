import Foundation
import SkateCore
@testable import SkateStore
import Testing

@Suite struct HazardMergeTests {
    let map = TinyMap.standard()
    var tiny: TinyMap { TinyMap() }

    func report(_ kind: HazardKind, _ x: Double, _ y: Double, by reporter: String, severity: Int = 2) -> HazardReport {
        HazardReport(kind: kind, position: tiny.at(x, y), severity: severity, source: .cli, reporter: reporter)
    }

    func rowCount(_ s: SkateStore) throws -> Int {
        try s.db.read { db in try db.fetchOne(Int.self, sql: "SELECT count(*) FROM hazard")! }
    }

    @Test func debounceSameReporterWithinTenMinutes() throws {
        let t = try TempStore(), s = t.store
        let first = try s.addHazard(report(.pothole, 50, 0, by: "alice"), zones: nil, now: t0)
        #expect(first.outcome == .added)
        // 10 m away, 5 minutes later: a double tap.
        let again = try s.addHazard(report(.pothole, 60, 0, by: "alice"), zones: nil, now: t0 + 5 * minute)
        #expect(again.outcome == .debounced)
        #expect(again.state.hazard.id == first.state.hazard.id)
        #expect(again.state.hazard.lastConfirmedAt == t0)
        #expect(try rowCount(s) == 1)
        // Later, the same reporter only refreshes: life extended, no confirmation counted.
        let later = try s.addHazard(report(.pothole, 55, 0, by: "alice"), zones: nil, now: t0 + 11 * minute)
        #expect(later.outcome == .refreshed)
        #expect(later.state.hazard.confirmations == 0)
        #expect(later.state.hazard.lastConfirmedAt == t0 + 11 * minute)
        #expect(try rowCount(s) == 1)
    }

    @Test func anotherReporterConfirmsAndExtendsLife() throws {
        let t = try TempStore(), s = t.store
        let first = try s.addHazard(report(.pothole, 50, 0, by: "alice", severity: 1), zones: nil, now: t0)
        let c = try s.addHazard(report(.pothole, 62, 5, by: "bob", severity: 3), zones: nil, now: t0 + 2 * minute)
        #expect(c.outcome == .confirmed)
        #expect(c.state.hazard.id == first.state.hazard.id)
        #expect(c.state.hazard.confirmations == 1)
        #expect(c.state.hazard.severity == 3)  // the highest reported
        #expect(c.state.hazard.lastConfirmedAt == t0 + 2 * minute)
        #expect(c.state.confidence > first.state.confidence)
        // Bob again at once: debounced, still one confirmation.
        let bobAgain = try s.addHazard(report(.pothole, 50, 1, by: "bob"), zones: nil, now: t0 + 4 * minute)
        #expect(bobAgain.outcome == .debounced)
        #expect(bobAgain.state.hazard.confirmations == 1)
        // Bob a day later: extends life, but one reporter counts once.
        let bobLater = try s.addHazard(report(.pothole, 50, 1, by: "bob"), zones: nil, now: t0 + day)
        #expect(bobLater.outcome == .confirmed)
        #expect(bobLater.state.hazard.confirmations == 1)
        #expect(bobLater.state.hazard.lastConfirmedAt == t0 + day)
        // Carol by id: a second confirmation.
        let carol = try s.confirmHazard(id: first.state.hazard.id, reporter: "carol", now: t0 + 2 * day)
        #expect(carol.outcome == .confirmed)
        #expect(carol.state.hazard.confirmations == 2)
        #expect(try rowCount(s) == 1)
    }

    @Test func otherKindOrFartherThanMergeRadiusIsNewHazard() throws {
        let t = try TempStore(), s = t.store
        try s.addHazard(report(.pothole, 50, 0, by: "alice"), zones: nil, now: t0)
        #expect(try s.addHazard(report(.gravel, 50, 0, by: "bob"), zones: nil, now: t0).outcome == .added)
        #expect(try s.addHazard(report(.pothole, 70, 0, by: "bob"), zones: nil, now: t0).outcome == .added)  // 20 m > 18 m
        #expect(try s.addHazard(report(.pothole, 67, 0, by: "carol"), zones: nil, now: t0).outcome == .confirmed)  // 3 m from the 2nd
        #expect(try rowCount(s) == 3)
        // Near merges with the nearest of the two potholes.
        let list = try s.hazards(now: t0)
        #expect(list.map(\.hazard.confirmations) == [0, 0, 1])
    }

    @Test(arguments: HazardKind.allCases)
    func expiresAfterItsKindsLifetime(kind: HazardKind) throws {
        let t = try TempStore(), s = t.store
        let id = try s.addHazard(report(kind, 50, 0, by: "alice"), zones: nil, now: t0).state.hazard.id
        let life = kind.lifetime
        #expect(try s.hazard(id: id, now: t0 + life - hour).isLive)
        #expect(!(try s.hazard(id: id, now: t0 + life + 1).isLive))
        #expect(try s.hazards(now: t0 + life + 1).isEmpty)
        #expect(try s.hazards(now: t0 + life + 1, includeExpired: true).count == 1)
        // A confirmation near the end extends it by a full lifetime from then.
        try s.confirmHazard(id: id, reporter: "bob", now: t0 + 0.9 * life)
        #expect(try s.hazard(id: id, now: t0 + 1.5 * life).isLive)
        #expect(!(try s.hazard(id: id, now: t0 + 1.9 * life + 1).isLive))
        // After expiry, a new report at the same spot is a new hazard.
        let fresh = try s.addHazard(report(kind, 50, 0, by: "bob"), zones: nil, now: t0 + 3 * life)
        #expect(fresh.outcome == .added)
        #expect(fresh.state.hazard.id != id)
    }

    @Test func lifetimesAreTheDocumentedOnes() {
        let days: [HazardKind: Double] = [.wet: 1, .debris: 2, .gravel: 7, .other: 14, .construction: 30,
                                          .pothole: 60, .crack: 120, .rail: 365]
        for k in HazardKind.allCases { #expect(k.lifetime == days[k]! * day, "\(k)") }
    }

    @Test func confidenceDecaysWithAge() throws {
        let t = try TempStore(), s = t.store
        let id = try s.addHazard(report(.pothole, 50, 0, by: "alice"), zones: nil, now: t0).state.hazard.id
        let fresh = try s.hazard(id: id, now: t0).confidence
        let mid = try s.hazard(id: id, now: t0 + 30 * day).confidence
        let late = try s.hazard(id: id, now: t0 + 59 * day).confidence
        #expect(fresh > mid && mid > late)
        #expect(abs(fresh - 1 / (1 + exp(-0.5))) < 1e-9)  // newcomer's trust 0.5, no votes, age 0
        #expect(abs(late / fresh - (1 - 0.5 * 59.0 / 60)) < 1e-9)
    }

    @Test func goneVotesRetireAHazardAndCostTrust() throws {
        let t = try TempStore(), s = t.store
        let id = try s.addHazard(report(.debris, 50, 0, by: "alice"), zones: nil, now: t0).state.hazard.id
        #expect(try s.trust(ofReporter: "alice") == 0.5)
        let g = try s.voteGone(id: id, reporter: "bob", now: t0 + hour)
        #expect(g.outcome == .votedGone)
        #expect(g.state.hazard.goneVotes == 1)
        #expect(!g.state.isLive)  // unconfirmed + one gone vote drops below the floor
        #expect(abs(try s.trust(ofReporter: "alice") - 1.0 / 3) < 1e-12)
        // A confirmed hazard survives a single gone vote.
        let id2 = try s.addHazard(report(.pothole, 150, 0, by: "alice"), zones: nil, now: t0).state.hazard.id
        try s.confirmHazard(id: id2, reporter: "carol", now: t0 + minute)
        let g2 = try s.voteGone(id: id2, reporter: "dave", now: t0 + hour)
        #expect(g2.state.isLive)
        let g3 = try s.voteGone(id: id2, reporter: "erin", now: t0 + hour)
        #expect(!g3.state.isLive)
        // Bob changes his mind about the first: his gone vote becomes a confirmation.
        let c = try s.confirmHazard(id: id, reporter: "bob", now: t0 + 2 * hour)
        #expect(c.state.hazard.goneVotes == 0 && c.state.hazard.confirmations == 1)
        #expect(c.state.isLive)
    }

    @Test func trustRisesWithConfirmationsAndWeightsConfidence() throws {
        let t = try TempStore(), s = t.store
        // Alice's three reports are each confirmed by someone else.
        for (i, x) in [20.0, 80.0, 140.0].enumerated() {
            let id = try s.addHazard(report(.crack, x, 0, by: "alice"), zones: nil, now: t0).state.hazard.id
            try s.confirmHazard(id: id, reporter: "rider\(i)", now: t0 + minute)
        }
        let aliceTrust = try s.trust(ofReporter: "alice")
        #expect(abs(aliceTrust - 4.0 / 5) < 1e-12)
        // Her own confirmations of her own reports never count.
        let own = try s.addHazard(report(.wet, 20, 50, by: "alice"), zones: nil, now: t0)
        try s.confirmHazard(id: own.state.hazard.id, reporter: "alice", now: t0 + hour)
        #expect(try s.trust(ofReporter: "alice") == aliceTrust)
        // Same fresh report: a trusted reporter's is more credible than a newcomer's.
        let a = try s.addHazard(report(.gravel, 20, 100, by: "alice"), zones: nil, now: t0 + hour)
        let n = try s.addHazard(report(.gravel, 180, 100, by: "newbie"), zones: nil, now: t0 + hour)
        #expect(a.state.confidence > n.state.confidence)
        #expect(a.state.reporterTrust > n.state.reporterTrust)
        // Retracting her own report (gone vote by herself) does not cost her trust.
        try s.voteGone(id: own.state.hazard.id, reporter: "alice", now: t0 + 2 * hour)
        #expect(try s.trust(ofReporter: "alice") == aliceTrust)
    }

    @Test func noReportZoneIsRefusedWithItsName() throws {
        let t = try TempStore(), s = t.store
        let zones = NoReportZones(map: map)
        #expect(zones.zones.count == 1)
        #expect {
            try s.addHazard(report(.pothole, 100, -50, by: "alice"), zones: zones, now: t0)
        } throws: { e in
            guard let se = e as? StoreError, case .noReportZone(let kind, let name) = se else { return false }
            return kind == .school && name == "École Test" && se.description.contains("school")
                && se.description.contains("École Test")
        }
        #expect(try rowCount(s) == 0)
        // Just outside the polygon (10 m east of its edge) is fine.
        #expect(try s.addHazard(report(.pothole, 130, -50, by: "alice"), zones: zones, now: t0).outcome == .added)
    }

    @Test func badInputIsRefused() throws {
        let t = try TempStore(), s = t.store
        #expect(throws: StoreError.badSeverity(4)) { try s.addHazard(report(.pothole, 0, 0, by: "a", severity: 4), zones: nil, now: t0) }
        #expect(throws: StoreError.badReporter("  ")) { try s.addHazard(report(.pothole, 0, 0, by: "  "), zones: nil, now: t0) }
        #expect(throws: StoreError.unknownHazard(id: 42)) { try s.confirmHazard(id: 42, reporter: "a", now: t0) }
        #expect(throws: StoreError.unknownHazard(id: 42)) { try s.voteGone(id: 42, reporter: "a", now: t0) }
        #expect(throws: StoreError.self) {
            try s.addHazard(HazardReport(kind: .wet, position: Coordinate(lat: .nan, lon: 0), reporter: "a"), zones: nil, now: t0)
        }
        #expect(try rowCount(s) == 0)
    }

    @Test func hazardsNearFilterAndFutureReportsHidden() throws {
        let t = try TempStore(), s = t.store
        try s.addHazard(report(.pothole, 0, 0, by: "a"), zones: nil, now: t0)
        try s.addHazard(report(.pothole, 300, 0, by: "a"), zones: nil, now: t0 + day)
        #expect(try s.hazards(now: t0 + 2 * day, near: tiny.at(10, 0), radius: 50).count == 1)
        #expect(try s.hazards(now: t0 + 2 * day).count == 2)
        #expect(try s.hazards(now: t0 + hour).count == 1)  // the second did not exist yet
    }
}
