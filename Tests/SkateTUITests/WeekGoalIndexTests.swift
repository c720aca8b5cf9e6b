import Foundation
import Testing
import SkateCore
import SkateRide
import SkateStore
import SkateTestSupport
@testable import SkateTUI

/// The plan screen's weekly goal counts a ride as soon as its log is written (no `stats` run
/// needed), and never a simulated rider's preview ride.
@Suite struct WeekGoalIndexTests {
    /// 2026-11-25T12:00:00Z, a Wednesday.
    static let wednesdayNoon: Double = 1_795_608_000

    static func writeLog(_ dir: URL, name: String, start: Double, metres: Int, simulated: Bool) throws {
        var h = RideLogHeader(rideId: name, map: "", mode: "free", startEpoch: start)
        if simulated { h.source = RideLogHeader.simulatedSource }
        let rec = try RideRecorder(path: dir.appendingPathComponent(name + ".ndjson").path, header: h)
        var state = RideState()
        let proj = LocalProjection(origin: Coordinate(lat: 43.73, lon: 7.42))
        for i in 0...(metres / 5) {
            state.t = Double(i)
            state.position = proj.unproject(x: Double(i) * 5, y: 0)
            state.speed = 5
            rec.sample(t: Double(i), state: state)
        }
        _ = rec.stop(summary: nil)
    }

    @Test func newLogsCountAndSimulatedOnesDoNot() throws {
        let root = TestData.temporaryDirectory("weekgoal")
        defer { try? FileManager.default.removeItem(at: root) }
        let logs = root.appendingPathComponent("rides")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let store = try SkateStore(dataDir: root)
        try store.setSetting(SkateStore.weeklyGoalKey, "20000")
        // A fixed Wednesday noon (UTC), far from any week boundary in any time zone: the real
        // clock put the rides of a minute ago in last week when run just after Monday 00:00.
        let now = Date(timeIntervalSince1970: Self.wednesdayNoon)
        let rider = StoreRiderData(store: store, rideLogDirectory: logs.path)
        #expect(rider.weekProgress(now: now)?.distance == 0)
        try Self.writeLog(logs, name: "mine", start: now.timeIntervalSince1970 - 60, metres: 1000, simulated: false)
        try Self.writeLog(logs, name: "preview", start: now.timeIntervalSince1970 - 30, metres: 3000, simulated: true)
        let week = try #require(rider.weekProgress(now: now))
        #expect(abs(week.distance - 1000) < 20, "\(week.distance)")
        #expect(week.goal == 20000)
    }
}
