import Foundation
import Testing
@testable import SkateRide
import SkateTestSupport

@Suite struct MotionReaderTests {
    static func write(_ text: String, name: String) -> String {
        let path = TestData.temporaryDirectory("motion").appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    @Test func csvInMetresPerSecondSquaredIsConvertedToG() throws {
        let path = Self.write("""
        # a test ride
        # units: m/s^2
        t,ax,ay,az,gx,gy,gz
        0.00,0,0,9.80665,0,0,0
        0.01, 0.980665 ,0,9.80665,0,0,0
        0.02,0,-19.6133,0,0.1,0.2,0.3

        """, name: "ride.csv")
        let r = try MotionReader().read(path: path)
        #expect(r.info.format == .csv)
        #expect(r.info.units == .metresPerSecondSquared)
        #expect(r.info.hasGyro)
        #expect(r.samples.count == 3)
        #expect(abs(r.samples[0].az - 1) < 1e-12)
        #expect(abs(r.samples[1].ax - 0.1) < 1e-12)
        #expect(abs(r.samples[2].ay + 2) < 1e-12)
        #expect(abs(r.info.estimatedRate! - 100) < 1e-6)
    }

    @Test func csvColumnsInAnyOrderUnitsInG() throws {
        let path = Self.write("# units: g\naz,ay,ax,t\n1,0,0.5,0\n1.5,0,0,0.02\n", name: "g.csv")
        let r = try MotionReader().read(path: path)
        #expect(r.samples == [MotionSample(t: 0, ax: 0.5, ay: 0, az: 1), MotionSample(t: 0.02, ax: 0, ay: 0, az: 1.5)])
        #expect(abs(r.info.estimatedRate! - 50) < 1e-6)
    }

    @Test func unitsFromSidecarOrCallerElseAClearError() throws {
        let path = Self.write("t,ax,ay,az\n0,0,0,9.8\n", name: "bare.csv")
        do {
            _ = try MotionReader().read(path: path)
            Issue.record("expected missing units")
        } catch let e as MotionError {
            #expect(e == .missingUnits(path: path))
            #expect(e.description.contains("units"))
        }
        let g = try MotionReader(defaultUnits: .g).read(path: path)
        #expect(g.samples[0].az == 9.8)
        _ = FileManager.default.createFile(atPath: path + ".units", contents: Data("m/s^2\n".utf8))
        let s = try MotionReader(defaultUnits: .g).read(path: path)   // sidecar beats the default
        #expect(abs(s.samples[0].az - 9.8 / 9.80665) < 1e-12)
    }

    @Test func malformedRowsNameFileAndLine() throws {
        let cases: [(String, Int, String)] = [
            ("# units: g\nt,ax,ay,az\n0,0,0,1\n0.01,0,zero,1\n", 4, "column ay"),
            ("# units: g\nt,ax,ay,az\n0,0,0,1\n0.01,0,1\n", 4, "expected 4 fields"),
            ("# units: g\ntime,x,y,z\n0,0,0,1\n", 2, "header"),
            ("# units: g\nt,ax,ay,az\n1,0,0,1\n0.5,0,0,1\n", 4, "time goes back"),
            ("# units: furlongs\nt,ax,ay,az\n", 1, "unknown units"),
            ("{\"units\":\"g\"}\n{\"t\":0,\"ax\":0,\"ay\":0,\"az\":1}\n{\"t\":0.01,\"ax\":0,\"az\":1}\n", 3, "missing or non-numeric ay"),
            ("{\"units\":\"g\"}\n{\"t\":0,\"ax\":0,\"ay\":0,\"az\":1\n", 2, "not a JSON object"),
        ]
        for (i, (text, line, fragment)) in cases.enumerated() {
            let path = Self.write(text, name: "bad\(i).\(text.hasPrefix("{") ? "ndjson" : "csv")")
            do {
                _ = try MotionReader().read(path: path)
                Issue.record("case \(i) parsed")
            } catch let e as MotionError {
                #expect(e.description.hasPrefix("\(path):\(line):"), "case \(i): \(e)")
                #expect(e.description.contains(fragment), "case \(i): \(e)")
            }
        }
        let empty = Self.write("# units: g\nt,ax,ay,az\n", name: "empty.csv")
        #expect(throws: MotionError.empty(path: empty)) { try MotionReader().read(path: empty) }
        #expect(throws: MotionError.self) { try MotionReader().read(path: "/nonexistent/m.csv") }
    }

    @Test func ndjsonWithHeaderLineAndExtraKeys() throws {
        let path = Self.write("""
        {"units":"m/s^2","rate_hz":100,"device":{"name":"x"}}
        {"t":0.00,"ax":0,"ay":0,"az":9.80665,"gx":0.1,"note":"start","ok":true}
        {"t":0.01,"ax":-9.80665e-1,"ay":0,"az":9.80665}
        """, name: "ride.ndjson")
        let r = try MotionReader().read(path: path)
        #expect(r.info.format == .ndjson)
        #expect(r.samples.count == 2)
        #expect(abs(r.samples[1].ax + 0.1) < 1e-12)
        #expect(abs(r.samples[0].az - 1) < 1e-12)
    }

    @Test func streamingDoesNotRetainSamples() throws {
        var text = "# units: g\nt,ax,ay,az\n"
        for i in 0..<5000 { text += "\(Double(i) / 100),0,0,1\n" }
        let path = Self.write(text, name: "long.csv")
        var count = 0
        var last = -1.0
        let info = try MotionReader().forEachSample(path: path) { s in count += 1; last = s.t }
        #expect(count == 5000 && info.sampleCount == 5000)
        #expect(last == 49.99)
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func correaTricksLoadAtOneGPerThousandCounts() throws {
        let tricks = try CorreaTricks.load(folder: TestData.path("motion/skateboard-tricks-correa2017"))
        #expect(tricks.count == 153)
        #expect(tricks.allSatisfy { $0.samples.count == 82 })
        #expect(Dictionary(grouping: tricks, by: \.label).mapValues(\.count) == [1: 32, 2: 35, 3: 30, 4: 25, 5: 31])
        // Board at rest before the pop: magnitude ≈ 1 g (the scale's evidence).
        var rest: [Double] = []
        for tr in tricks { for s in tr.samples.prefix(8) { rest.append((s.ax * s.ax + s.ay * s.ay + s.az * s.az).squareRoot()) } }
        rest.sort()
        #expect(abs(rest[rest.count / 2] - 1) < 0.05)
        // Every trick has a shock of several g.
        #expect(tricks.allSatisfy { tr in tr.samples.contains { abs($0.az) > 2.5 } })
        #expect(abs(tricks[0].samples[1].t - 0.01) < 1e-12)
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func basicMotionsLoadsAtTenHertz() throws {
        let cases = try BasicMotions.load(path: TestData.path("motion/basicmotions-sktime/BasicMotions_TEST.ts"))
        #expect(cases.count == 40)
        #expect(cases.allSatisfy { $0.samples.count == 100 })
        #expect(Set(cases.map(\.label)) == ["Standing", "Walking", "Running", "Badminton"])
        #expect(try RoughnessEngine.estimateRate(cases[0].samples) == 10)
    }
}

@Suite struct RideManifestTests {
    @Test func roundTripsWithSortedKeysAndResolvesPaths() throws {
        let dir = TestData.temporaryDirectory("ride")
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("fixes.gpx").path, contents: Data("<gpx/>".utf8))
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("motion.csv").path, contents: Data())
        let m = RideManifest(gpx: "fixes.gpx", motion: "motion.csv", motionUnits: .g, title: "Seafront", map: "monaco",
                             mode: "cruise", synthCommand: "skateroute synth --from A --to B --seed 7", seed: 7)
        try m.write(toFolder: dir.path)
        let text = try String(contentsOf: dir.appendingPathComponent("ride.json"), encoding: .utf8)
        let keys = text.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: "\"", omittingEmptySubsequences: false)
            return parts.count >= 2 ? String(parts[1]) : nil
        }
        #expect(keys == keys.sorted())
        #expect(text.contains("\"synth_command\""))
        #expect(try m.encoded() == m.encoded())
        let folder = try RideFolder.open(dir.path)
        #expect(folder.manifest == m)
        #expect(folder.gpxPath == dir.appendingPathComponent("fixes.gpx").path)
        #expect(folder.motionPath == dir.appendingPathComponent("motion.csv").path)
        #expect(folder.plannedRoutePath == nil)
    }

    @Test func badManifestsGiveOneLineErrors() throws {
        let dir = TestData.temporaryDirectory("ride")
        let manifest = dir.appendingPathComponent("ride.json").path
        _ = FileManager.default.createFile(atPath: manifest, contents: Data("{\"motion\":\"m.csv\"}".utf8))
        #expect(throws: RideFolderError.badManifest(path: manifest, reason: "missing key 'gpx'")) { try RideFolder.open(dir.path) }
        _ = FileManager.default.createFile(atPath: manifest, contents: Data("{\"gpx\":\"nope.gpx\"}".utf8))
        do { _ = try RideFolder.open(manifest); Issue.record("expected error") } catch let e as RideFolderError {
            #expect(e.description.contains("nope.gpx") && e.description.contains("gpx file"))
        }
        _ = FileManager.default.createFile(atPath: manifest, contents: Data("not json".utf8))
        #expect(throws: RideFolderError.self) { try RideFolder.open(dir.path) }
        #expect(throws: RideFolderError.notFound(path: "/nonexistent/ride")) { try RideFolder.open("/nonexistent/ride") }
    }
}

@Suite struct StreamMergeTests {
    @Test func mergesByTimeWithDeterministicTies() {
        let fixes = [0.0, 1.0, 2.0].map { GPXFix(time: $0, coordinate: .init(lat: 0, lon: 0)) }
        let motion = stride(from: 0.0, through: 2.0, by: 0.5).map { MotionSample(t: $0, ax: 0, ay: 0, az: 1) }
        let merged = Array(StreamMerge<RideInput>.ride(fixes: fixes, motion: motion))
        #expect(merged.count == 8)
        #expect(zip(merged, merged.dropFirst()).allSatisfy { $0.time <= $1.time })
        // Ties: the fix (first stream) before the motion sample.
        guard case .fix = merged[0], case .motion = merged[1] else { Issue.record("tie order"); return }
        #expect(merged.map(\.time) == [0, 0, 0.5, 1, 1, 1.5, 2, 2])
    }

    @Test func kWayMergeKeepsStreamOrderAndHandlesEmptyStreams() {
        let a = [1.0, 3.0, 3.0, 7.0], b: [Double] = [], c = [2.0, 3.0, 8.0]
        let streams = [a, b, c].enumerated().map { i, xs in
            AnyIterator(xs.enumerated().map { (stream: i, k: $0.offset, t: $0.element) }.makeIterator())
        }
        let out = Array(StreamMerge(streams, time: \.t))
        #expect(out.map(\.t) == [1, 2, 3, 3, 3, 7, 8])
        #expect(out.filter { $0.t == 3 }.map { "\($0.stream).\($0.k)" } == ["0.1", "0.2", "2.1"])
    }
}
