import Foundation
import SkateCore
@testable import SkateStore
import SkateTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension BuiltCLI {
    /// The hazard id in an `added hazard #N:` acknowledgement.
    static func ackedID(_ stdout: String) -> Int64? {
        guard let r = stdout.range(of: "added hazard #") else { return nil }
        return Int64(stdout[r.upperBound...].prefix { $0.isNumber })
    }
}

/// A temp directory holding a data dir and the tiny map file.
final class CLIFixture: Sendable {
    let dir = TestData.temporaryDirectory("skatestore-cli")
    var dataDir: String { dir.appendingPathComponent("data").path }
    var mapPath: String { dir.appendingPathComponent("tiny.srmap").path }

    init() throws { try MapFormat.write(TinyMap.standard(), to: mapPath) }
    deinit { try? FileManager.default.removeItem(at: dir) }

    /// `hazards add` arguments for a pothole at (x, y) metres on the tiny map.
    func addArgs(x: Double, y: Double, reporter: String, kind: String = "pothole") -> [String] {
        let c = TinyMap().at(x, y)
        return ["hazards", "add", "--kind", kind, "--at", "\(c.lat),\(c.lon)", "--severity", "3", "--reporter", reporter,
                "--data-dir", dataDir, "--map", mapPath, "--now", "2026-05-01T12:00:00Z"]
    }
}

@Suite(.serialized, .enabled(if: BuiltCLI.available, Comment(rawValue: BuiltCLI.skipMessage)))
struct ProcessTests {
    @Test func twoProcessesAddingAtOnceLoseNothing() throws {
        let fx = try CLIFixture()
        // No store yet: the two workers' first adds also race to create and migrate it.
        let perWorker = 20
        let results = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 2) { w in
            for i in 0..<perWorker {
                // 30 m apart: never within the merge radius of one another.
                let r = try? BuiltCLI.run(fx.addArgs(x: Double(i) * 30, y: 200 + Double(w) * 100, reporter: "worker\(w)"))
                results.append(r)
            }
        }
        let all = results.items
        #expect(all.count == 2 * perWorker)
        for r in all { #expect(r?.status == 0, Comment(rawValue: r?.stderr ?? "did not start")) }
        let ids = Set(all.compactMap { $0.flatMap { BuiltCLI.ackedID($0.stdout) } })
        #expect(ids.count == 2 * perWorker)
        let store = try SkateStore(dataDir: URL(fileURLWithPath: fx.dataDir))
        let stored = try store.hazards(now: t0)
        #expect(Set(stored.map(\.hazard.id)) == ids)
        #expect(try store.integrityCheck() == "ok")
    }

    @Test func processesCreatingANewStoreAtOnceAllSucceed() throws {
        // Several rounds of several processes: the race (switching a brand-new file to WAL) is
        // narrow, and faster process starts made it show.
        let workers = 5
        for round in 0..<4 {
            let fx = try CLIFixture()
            let started = try (0..<workers).map { w in try BuiltCLI.start(fx.addArgs(x: Double(w) * 40, y: 600, reporter: "r\(w)")) }
            for (p, o, e) in started {
                let r = BuiltCLI.finish(p, o, e)
                #expect(r.status == 0, Comment(rawValue: "round \(round): \(r.stderr)"))
            }
            let store = try SkateStore(dataDir: URL(fileURLWithPath: fx.dataDir))
            #expect(try store.hazards(now: t0).count == workers)
        }
    }

    @Test func acknowledgedReportsSurviveKillNine() throws {
        let fx = try CLIFixture()
        // How long one add takes here, to spread the kills over its whole life.
        let clock = ContinuousClock()
        var typical = Duration.zero
        var firstAck: Int64?
        typical = clock.measure {
            firstAck = (try? BuiltCLI.run(fx.addArgs(x: 0, y: 300, reporter: "timer"))).flatMap { BuiltCLI.ackedID($0.stdout) }
        }
        #expect(firstAck != nil)
        // Capped so a slow, loaded machine keeps the loop short.
        let typicalMs = min(400, Double(typical.components.attoseconds) / 1e15 + Double(typical.components.seconds) * 1000)
        var acked: [Int64: Int] = [:]  // id → loop index
        var killed = 0
        let rounds = 16
        for i in 0..<rounds {
            let (p, out, err) = try BuiltCLI.start(fx.addArgs(x: Double(i) * 30, y: 400, reporter: "k\(i)"))
            // From 10 % to 130 % of a typical run: some die early, some mid-write, some finish.
            usleep(useconds_t(typicalMs * (0.1 + 1.2 * Double(i) / Double(rounds - 1)) * 1000))
            kill(p.processIdentifier, SIGKILL)
            let r = BuiltCLI.finish(p, out, err)
            if r.killed { killed += 1 }
            if let id = BuiltCLI.ackedID(r.stdout) { acked[id] = i }
        }
        let store = try SkateStore(dataDir: URL(fileURLWithPath: fx.dataDir))
        #expect(try store.integrityCheck() == "ok")
        let stored = Dictionary(uniqueKeysWithValues: try store.hazards(now: t0).map { ($0.hazard.id, $0.hazard) })
        for (id, i) in acked {
            let h = try #require(stored[id], "acknowledged hazard #\(id) (round \(i)) is missing")
            #expect(h.reporter == "k\(i)")
        }
        // The store still takes reports after the carnage.
        #expect(BuiltCLI.ackedID(try BuiltCLI.run(fx.addArgs(x: 0, y: 500, reporter: "after")).stdout) != nil)
        print("kill -9 loop: typical add \(Int(typicalMs)) ms, \(rounds) rounds, \(killed) killed, \(acked.count) acknowledged, \(stored.count - 1) stored")
    }

    @Test func badInputGetsOneLineAndExitOne() throws {
        let fx = try CLIFixture()
        var args = fx.addArgs(x: 0, y: 0, reporter: "a")
        args[3] = "sinkhole"
        let kind = try BuiltCLI.run(args)
        #expect(kind.status == 1)
        #expect(kind.stderr.contains("unknown hazard kind 'sinkhole'") && kind.stderr.split(separator: "\n").count == 1)
        args = fx.addArgs(x: 0, y: 0, reporter: "a")
        args[5] = "43.7;7.4"
        let at = try BuiltCLI.run(args)
        #expect(at.status == 64, "a malformed position is a usage error")
        #expect(at.stderr.contains("--at") && at.stderr.split(separator: "\n").count == 1)
        let unknown = try BuiltCLI.run(["hazards", "confirm", "77", "--data-dir", fx.dataDir])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "skateroute: no hazard with id 77\n")
        let badNow = try BuiltCLI.run(["hazards", "list", "--data-dir", fx.dataDir, "--now", "yesterday"])
        #expect(badNow.status == 1 && badNow.stderr.contains("ISO 8601"))
        // Inside the school: refused, naming the zone.
        let school = try BuiltCLI.run(fx.addArgs(x: 100, y: -50, reporter: "a"))
        #expect(school.status == 1)
        #expect(school.stderr.contains("school") && school.stderr.contains("École Test"))
    }

    @Test func cliRoundTripWithNowAndEscapedNames() throws {
        let fx = try CLIFixture()
        // A name carrying escape sequences is refused (issue 15), not stored to reach other terminals later.
        let refused = try BuiltCLI.run(fx.addArgs(x: 50, y: 2, reporter: "evil\u{1B}[2Jname", kind: "wet"))
        #expect(refused.status == 1 && refused.stderr.contains("reporter name") && !refused.stderr.contains("\u{1B}"))
        let evil = "evil name ✓"
        let add = try BuiltCLI.run(fx.addArgs(x: 50, y: 2, reporter: evil, kind: "wet"))
        let id = try #require(BuiltCLI.ackedID(add.stdout), "\(add.stderr)")
        let list = try BuiltCLI.run(["hazards", "list", "--data-dir", fx.dataDir, "--now", "2026-05-01T18:00:00Z"])
        #expect(list.stdout.contains("#\(id) wet") && list.stdout.contains("evil name ✓") && !list.stdout.contains("\u{1B}"))
        // Wet lasts a day: gone by the next afternoon.
        let later = try BuiltCLI.run(["hazards", "list", "--data-dir", fx.dataDir, "--now", "2026-05-02T13:00:00Z"])
        #expect(later.stdout.contains("no live hazards"))
        let json = try BuiltCLI.run(["hazards", "list", "--json", "--near", add.stdout.isEmpty ? "0,0" : "\(TinyMap().at(50, 0).lat),\(TinyMap().at(50, 0).lon)",
                                     "--radius", "30", "--data-dir", fx.dataDir, "--now", "2026-05-01T13:00:00Z"])
        let doc = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let arr = doc["hazards"] as! [[String: Any]]
        #expect(arr.count == 1 && arr[0]["kind"] as? String == "wet" && arr[0]["reporter"] as? String == evil)
        let confirm = try BuiltCLI.run(["hazards", "confirm", "\(id)", "--reporter", "bob", "--data-dir", fx.dataDir, "--now", "2026-05-01T13:00:00Z"])
        #expect(confirm.status == 0 && confirm.stdout.contains("1 confirmation"))
        let gone = try BuiltCLI.run(["hazards", "gone", "\(id)", "--reporter", "carol", "--data-dir", fx.dataDir, "--now", "2026-05-01T14:00:00Z"])
        #expect(gone.status == 0 && gone.stdout.contains("1 gone vote"))
        let geo = try BuiltCLI.run(["hazards", "export", "--geojson", "--data-dir", fx.dataDir, "--now", "2026-05-01T14:00:00Z"])
        let fc = try JSONSerialization.jsonObject(with: Data(geo.stdout.utf8)) as! [String: Any]
        #expect((fc["features"] as! [Any]).count == 1)
        #expect(!geo.stdout.contains("evil"))  // exports carry no reporter names
        let rate = try BuiltCLI.run(["rate", "--at", "\(TinyMap().at(150, 4).lat),\(TinyMap().at(150, 4).lon)", "crusty",
                                     "--data-dir", fx.dataDir, "--map", fx.mapPath, "--now", "2026-05-01T14:00:00Z"])
        #expect(rate.status == 0, "\(rate.stderr)")
        #expect(rate.stdout.contains("Rue Alpha") && rate.stdout.contains("4 m"))
        let store = try SkateStore(dataDir: URL(fileURLWithPath: fx.dataDir))
        let r = try store.surface(of: EdgeKey(wayId: 1001, fromNode: 2, toNode: 3), now: t0 + 3 * hour).rating
        #expect(r?.rms == SurfaceRating.crustyRMS)
    }
}

/// Collects results from concurrent workers.
final class ResultBox: Sendable {
    private let results = Mutex<[BuiltCLI.Result?]>([])
    func append(_ r: BuiltCLI.Result?) { results.withLock { $0.append(r) } }
    var items: [BuiltCLI.Result?] { results.withLock { $0 } }
}
