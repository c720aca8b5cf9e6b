import Foundation
import SkateCore
@testable import SkateRide
import SkateTestSupport
import Testing

/// Ride history from synthetic NDJSON logs: indexing, truncated logs, stats and badges.
@Suite struct HistoryTests {
    static let utc = TimeZone(identifier: "UTC")!
    /// 2026-05-01T10:00:00Z.
    static let day0 = 1_777_629_600.0

    /// Writes a schema-2 log: header, a sample every `step` seconds along a line due north at
    /// `speed` m/s for `seconds`, and (unless `cut`) the summary line with the distance.
    static func writeLog(_ dir: URL, id: String, start: Double, seconds: Double, speed: Double = 5, step: Double = 1,
                         stopAt: Double? = nil, stopFor: Double = 0, cut: Bool = false) throws -> String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        var out = String(decoding: try enc.encode(RideLogHeader(rideId: id, map: "", mode: "free", startEpoch: start)), as: UTF8.self) + "\n"
        var lat = 43.73
        var t = 0.0, dist = 0.0
        while t <= seconds {
            let stopped = stopAt.map { t >= $0 && t < $0 + stopFor } ?? false
            let v = stopped ? 0.1 : speed
            out += "{\"class\":\"okay\",\"lat\":\(lat),\"lon\":7.42,\"rms\":null,\"speed\":\(v),\"t\":\(t)}\n"
            if t + step > seconds + 1e-9 { break }
            let d = stopped ? 0 : speed * step
            lat += d / 111_195
            dist += d
            t += step
        }
        if cut {
            out += "{\"class\":\"okay\",\"lat\":43.7"  // a crash mid-line
        } else {
            out += "{\"event\":\"summary\",\"summary\":{\"distance_m\":\(dist),\"duration_s\":\(seconds),\"max_speed_mps\":\(speed),\"metres_by_class\":{\"crusty\":12.5}}}\n"
        }
        let path = dir.appendingPathComponent("\(id).ndjson").path
        try out.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func hundredKilometresEarnsTheBadgeOnTheRightDay() throws {
        let dir = TestData.temporaryDirectory("history")
        defer { try? FileManager.default.removeItem(at: dir) }
        // 12 daily rides of 9 km (1800 s at 5 m/s): 99 km after the 11th, 108 km after the 12th.
        var records: [RideRecord] = []
        for k in 0..<12 {
            let p = try Self.writeLog(dir, id: "r\(k)", start: Self.day0 + Double(k) * 86_400, seconds: 1_800, step: 10)
            let (r, warning) = try RideLogIndexer.read(path: p, map: nil)
            #expect(warning == nil && r.complete)
            records.append(r)
        }
        #expect(abs(records[0].distance - 9_000) < 1)
        let badges = RideStats.badges(records.shuffled(), timeZone: Self.utc)
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        func earned(_ id: String) -> String? { badges.first { $0.id == id }.map { day.string(from: $0.earnedAt) } }
        #expect(earned("first_ride") == "2026-05-01")
        #expect(earned("distance_10km") == "2026-05-02", "9 + 9 km crosses 10 km on the second day")
        #expect(earned("distance_100km") == "2026-05-12", "99 km after 11 days, 108 after the 12th")
        #expect(badges.first { $0.id == "distance_100km" }?.rideId == "r11")
        #expect(earned("distance_1000km") == nil && earned("long_ride_10km") == nil && earned("night_rider") == nil)
        #expect(badges.allSatisfy { !$0.rule.isEmpty })
        // Totals and weeks.
        let now = Date(timeIntervalSince1970: Self.day0 + 12 * 86_400)
        let all = RideStats.totals(records, from: nil, to: now)
        #expect(all.rides == 12 && abs(all.distance - 108_000) < 10 && abs(all.crustyMetres - 150) < 0.01)
        let week = RideStats.totals(records, from: RideStats.periodStart(.week, now: now, timeZone: Self.utc), to: now)
        // 2026-05-13 is a Wednesday: the week holds the rides of May 11 and 12.
        #expect(week.rides == 2)
        let bars = RideStats.weeks(records, now: now, timeZone: Self.utc)
        #expect(bars.count == RideStats.barWeeks && bars.map(\.rides).reduce(0, +) == 12 && bars.last?.rides == 2)
    }

    @Test func nightRideAndLongRideAndReporterBadges() throws {
        let dir = TestData.temporaryDirectory("history-night")
        defer { try? FileManager.default.removeItem(at: dir) }
        // 22:30 UTC start, 2,100 s at 5 m/s = 10.5 km.
        let p = try Self.writeLog(dir, id: "late", start: Self.day0 + 12.5 * 3_600, seconds: 2_100, step: 10)
        let r = try RideLogIndexer.read(path: p, map: nil).record
        let confirmations = (0..<10).map { Date(timeIntervalSince1970: Self.day0 + Double($0) * 86_400) }
        let b = RideStats.badges([r], hazardsConfirmed: confirmations, timeZone: Self.utc)
        #expect(Set(b.map(\.id)).isSuperset(of: ["night_rider", "long_ride_10km", "distance_10km", "hazards_confirmed_10"]))
        #expect(b.first { $0.id == "hazards_confirmed_10" }?.earnedAt == confirmations[9])
        // The same start is not a night ride two hours east of UTC (00:30 local is; 12:30 UTC+2 would not be).
        #expect(RideStats.badges([r], timeZone: TimeZone(secondsFromGMT: -12 * 3_600)!).contains { $0.id == "night_rider" } == false)
        #expect(RideStats.badges(Array(repeating: r, count: 0), hazardsConfirmed: Array(confirmations.prefix(9)), timeZone: Self.utc).isEmpty)
    }

    @Test func truncatedLogCountsWhatIsThereAndSaysSo() throws {
        let dir = TestData.temporaryDirectory("history-cut")
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = try Self.writeLog(dir, id: "cut", start: Self.day0, seconds: 600, cut: true)
        let (r, warning) = try RideLogIndexer.read(path: p, map: nil)
        #expect(!r.complete)
        #expect(abs(r.distance - 3_000) < 10, "600 s at 5 m/s before the cut")
        let w = try #require(warning)
        #expect(w.contains("cut at line") && !w.contains("\n"))
        // Garbage is refused in one line.
        let junk = dir.appendingPathComponent("junk.ndjson").path
        try "not json\n".write(toFile: junk, atomically: true, encoding: .utf8)
        #expect(throws: RideLogIndexer.Failure.self) { try RideLogIndexer.read(path: junk, map: nil) }
    }
}
