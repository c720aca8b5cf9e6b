import Foundation
import SkateCore
import SkateRide
import SkateTestSupport

/// Shared fixtures of the ride-pipeline tests: the bundled map, a planner, and the shipped rides.
enum RideFixtures {
    /// The bundled map's load, nil only when the file is absent. A map that is present but does
    /// not load is a failure, not a skip: the tests it gates run and fail on `require(map)`, and
    /// `bundledMapLoads` names the loader's error.
    static let mapLoad: Result<SkateMap, any Error>? = FileManager.default.fileExists(atPath: TestData.bundledMonaco)
        ? Result { try MapFormat.load(path: TestData.bundledMonaco) } : nil
    static let map: SkateMap? = try? mapLoad?.get()
    static let planner: Planner? = map.map { Planner(map: $0) }
    /// True when the bundled map file is there (whether or not it loads).
    static var mapAvailable: Bool { mapLoad != nil }

    /// The ride folders shipped in Rides/.
    static let shippedRides: [String] = {
        let dir = TestData.projectRoot.appendingPathComponent("Rides").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.sorted().filter { FileManager.default.fileExists(atPath: "\(dir)/\($0)/ride.json") }.map { "\(dir)/\($0)" }
    }()

    /// Replays a ride folder headless as the CLI does (plan from its plan.json) and returns the
    /// summary, the session's events and the log bytes.
    static func replay(_ folder: String, logDir: URL) throws -> (summary: RideSummary, events: [RideEvent], log: Data) {
        let source = try RideSource.open(folder)
        let planner = try require(planner)
        let pf = try PlanFile.load(path: try require(source.plannedRoutePath))
        let plan = try planner.plan(from: pf.from, to: pf.to, mode: pf.mode ?? .smoothest)
        let logPath = logDir.appendingPathComponent(UUID().uuidString + ".ndjson").path
        let recorder = try RideRecorder(path: logPath, header: RideLogHeader(rideId: source.rideId, map: "Monaco", mode: plan.mode.rawValue,
                                                                           startEpoch: source.fixes.first?.time ?? 0))
        let session = RideSession(plan: plan, planner: planner, clock: VirtualClock(), recorder: recorder)
        var events: [RideEvent] = []
        session.onEvent = { events.append($0) }
        for w in source.warnings { session.warn(w) }
        try source.forEachInput { session.feed($0) }
        let summary = session.finish()
        let data = try Data(contentsOf: URL(fileURLWithPath: logPath))
        return (summary, events, data)
    }
}

/// `#require` outside a test body, for fixtures.
struct FixtureMissing: Error {}
func require<T>(_ v: T?) throws -> T { guard let v else { throw FixtureMissing() }; return v }

import Testing

/// The bundled map loads (a broken map fails here with the loader's message, and in every test
/// that uses it, instead of turning them into skips).
@Suite struct RideFixturesTests {
    @Test(.enabled(if: RideFixtures.mapAvailable, "Maps/monaco.srmap is absent"))
    func bundledMapLoads() throws {
        let map = try #require(RideFixtures.mapLoad).get()
        #expect(map.edgeCount > 0)
    }
}
