import Dispatch
import Foundation
import SkateCore
@testable import SkateStore
import SkateTestSupport
import Testing

/// One `SkateStore` used from several threads at once (the TUI records a ride's measurements while
/// it plans and lists), and the settings every connection runs with.
@Suite struct StoreConcurrencyTests {
    @Test func writesAndReadsFromManyThreadsAllLand() throws {
        let t = try TempStore()
        let store = t.store
        /// Threads and measurements each: enough to interleave writes and reads on two connections.
        let threads = 6, each = 20
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: threads) { k in
            for i in 0..<each {
                do {
                    try store.recordMeasurement(EdgeKey(wayId: Int64(k), fromNode: Int64(i), toNode: Int64(i + 1)), rms: 0.1, at: t0)
                    _ = try store.surface(of: EdgeKey(wayId: Int64(k), fromNode: 0, toNode: 1), now: t0)
                    if i % 5 == 0 {
                        try store.addHazard(HazardReport(kind: .wet, position: Coordinate(lat: 43.7 + Double(k) * 0.01, lon: 7.4 + Double(i) * 0.001),
                                                         reporter: "r\(k)"), zones: nil, now: t0)
                    }
                } catch { failures.add("\(error)") }
            }
        }
        #expect(failures.all.isEmpty)
        #expect(try store.db.read { try $0.fetchOne(Int.self, sql: "SELECT count(*) FROM surfaceObservation") } == threads * each)
        #expect(try store.hazards(now: t0).count == threads * each / 5)
        #expect(try store.integrityCheck() == "ok")
    }

    @Test func everyConnectionSyncsEachCommitAndEnforcesForeignKeys() throws {
        let t = try TempStore()
        let short = try SkateStore(openingExisting: t.dir)
        for store in [t.store, short] {
            // 2 = FULL (GRDB's pool writer had ended up at NORMAL, 1, when it switched to WAL).
            #expect(try store.db.write { try $0.pragma("synchronous") } == .integer(2))
            #expect(try store.db.read { try $0.pragma("synchronous") } == .integer(2))
            #expect(try store.db.write { try $0.pragma("foreign_keys") } == .integer(1))
            #expect(try store.db.read { try $0.pragma("busy_timeout") } == .integer(Int64(SkateStore.busyTimeout * 1000)))
            #expect(throws: StoreError.self) {
                try store.write { try $0.execute(sql: "INSERT INTO hazardVote VALUES (999, 'x', 'gone', 0)") }
            }
        }
        // The pool's reader refuses writes.
        #expect(throws: SQLiteError.self) { try t.store.db.read { try $0.execute(sql: "DELETE FROM hazard") } }
    }
}
