import Foundation
import Testing
import SkateCore
import SkateTestSupport
@testable import SkateRide

/// A simulated rider's log (the TUI's preview ride) says so in its header, and ride history
/// never counts it: watching a simulation is not riding.
@Suite struct SimulatedRideLogTests {
    static func log(source: String?) throws -> String {
        let dir = TestData.temporaryDirectory("simlog")
        let path = dir.appendingPathComponent("r.ndjson").path
        var h = RideLogHeader(rideId: "r", map: "", mode: "free", startEpoch: 1_780_000_000)
        h.source = source
        let rec = try RideRecorder(path: path, header: h)
        var state = RideState()
        for i in 0..<50 {
            state.position = Coordinate(lat: 43.73 + Double(i) * 1e-5, lon: 7.42)
            state.speed = 4
            rec.sample(t: Double(i) * 0.1 * 10, state: state)
        }
        _ = rec.stop(summary: nil)
        return path
    }

    @Test func simulatedLogsAreNotIndexed() throws {
        let real = try Self.log(source: nil)
        let (record, _) = try RideLogIndexer.read(path: real, map: nil)
        #expect(record.distance > 40)
        #expect(!(try String(contentsOfFile: real, encoding: .utf8)).contains("\"source\""), "a recorded ride's header is unchanged")
        let sim = try Self.log(source: RideLogHeader.simulatedSource)
        do {
            _ = try RideLogIndexer.read(path: sim, map: nil)
            Issue.record("a simulated ride was indexed")
        } catch let e as RideLogIndexer.Failure {
            #expect(e.simulated)
        }
    }
}
