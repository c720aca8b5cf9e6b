import Foundation
import SkateCore
import SkateRide
import SkateStore
@testable import SkateTUI
import SkateTestSupport
import Testing

/// `skateroute ride RIDE --log FILE` in the live view: the ride it starts logs to FILE (once;
/// later rides of the session go to the log folder as before).
@Suite struct RideLogPathTests {
    @Test func givenLogPathIsUsedOnceForTheStartedRide() throws {
        let dir = TestData.temporaryDirectory("tui-log-path")
        defer { try? FileManager.default.removeItem(at: dir) }
        let services = TUIServices(map: RouteFixture.map, storeProblem: "no store in tests", rideLogDirectory: nil,
                                   zones: NoReportZones(zones: []), now: { RouteFixture.now })
        let path = dir.appendingPathComponent("chosen.ndjson").path
        services.rideLogPath = path
        let inputs: [RideInput] = [.fix(GPXFix(time: 100, coordinate: AsciiMap.origin)), .fix(GPXFix(time: 101, coordinate: AsciiMap.origin))]
        var warnings: [String] = []
        var logPath: String?
        let recorder = RideLauncher.makeRecorder(services: services, inputs: inputs, plan: nil, mapName: "m", warnings: &warnings, path: &logPath)
        #expect(recorder != nil && logPath == path, "\(String(describing: logPath)) \(warnings)")
        recorder?.stop()
        let header = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.contains("\"schema\":\(RideLogHeader.currentSchema)"), "\(header)")
        // Like every output: the map's attribution and the creation time (the injected clock).
        #expect(header.contains("\"attribution\":") && header.contains("\"created_at\":\"\(ISO8601Time.format(RouteFixture.now.timeIntervalSince1970.rounded(.down)))\""), "\(header)")
        // Used once: with no log folder, the next ride is not recorded.
        var again: String?
        #expect(RideLauncher.makeRecorder(services: services, inputs: inputs, plan: nil, mapName: "m", warnings: &warnings, path: &again) == nil)
        #expect(again == nil)
    }
}
