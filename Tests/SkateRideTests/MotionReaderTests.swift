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

    /// What `ByteText.double` must give for a field: the standard parser's Double of the field
    /// without its blanks, finite only (the reference the fast paths are held to).
    static func standardDouble(_ field: Substring) -> Double? {
        let t = field.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, t.utf8.count < ByteText.maxNumberBytes, let v = Double(Substring(t)), v.isFinite else { return nil }
        return v
    }

    static func byteDouble(_ field: Substring) -> Double? {
        var bytes = Array(field.utf8)
        return bytes.withUnsafeMutableBufferPointer { ByteText.double(UnsafeBufferPointer($0)) }
    }

    /// Every field of every shipped ride's motion.csv: the fast path (`plainDecimal`) takes it and
    /// gives the very Double `Double(Substring)` gives, bit for bit; and the reader's samples are
    /// those Doubles, line by line.
    @Test func fastNumberPathGivesTheStandardDoublesOnShippedRides() throws {
        let rides = RideFixtures.shippedRides
        #expect(!rides.isEmpty)
        for ride in rides {
            let path = ride + "/motion.csv"
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let text = try String(contentsOfFile: path, encoding: .utf8)
            var expected: [MotionSample] = []
            var header = true
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                if header { header = false; #expect(line == "t,ax,ay,az"); continue }
                let f = line.split(separator: ",", omittingEmptySubsequences: false)
                try #require(f.count == 4, "\(path): \(line)")
                var v: [Double] = []
                for field in f {
                    let want = try #require(Self.standardDouble(field), "\(path): \(line)")
                    var bytes = Array(field.utf8)
                    let fast = bytes.withUnsafeMutableBufferPointer { ByteText.plainDecimal(UnsafeBufferPointer($0)) }
                    #expect(fast?.bitPattern == want.bitPattern, "\(path): '\(field)' fast \(String(describing: fast)) vs \(want)")
                    #expect(Self.byteDouble(field)?.bitPattern == want.bitPattern, "\(path): '\(field)'")
                    v.append(want)
                }
                expected.append(MotionSample(t: v[0], ax: v[1], ay: v[2], az: v[3]))
            }
            let read = try MotionReader().read(path: path).samples
            #expect(read.count == expected.count, "\(path)")
            func bits(_ s: MotionSample) -> [UInt64] { [s.t.bitPattern, s.ax.bitPattern, s.ay.bitPattern, s.az.bitPattern] }
            let n = min(read.count, expected.count)
            let mismatch = (0..<n).first { (k: Int) -> Bool in bits(read[k]) != bits(expected[k]) }
            #expect(mismatch == nil, "\(path): sample \(mismatch ?? -1) differs from the standard parser's")
        }
    }

    /// Edge cases: signs, zeros, exponents, long mantissas, blanks and garbage give what the
    /// standard parser gives (or are refused when it refuses them or the value is not finite).
    @Test func numberParserMatchesTheStandardParserOnEdgeCases() {
        let cases: [String] = ["0", "-0", "+0", "-0.000", "+1.5", "-1.5", "1.016", "-0.002", "0.01", "9.80665", "007.50",
                     "123456789012345", "-123456789012345", "1234567890123456", "0.000000000000001", "0.0000000000000001",
                     "1.23456789012345", "1.234567890123456", "0.1234567890123456789", "99999999999999999999999",
                     "18446744073709551616", "184467440737095516160.5", "0.30000000000000004", "2.2250738585072014e-308",
                     "1e3", "1E-3", "-2.5e+2", "1e22", "1e23", "4.9e-324", "1e-400", "1e400", "-1e400", "1.7976931348623157e308",
                     ".5", "5.", "-.5", "+", "-", ".", "1.2.3", "--1", "+-1", "1-", "1e", "e5", "0x10", "0x1p3", "inf", "-inf",
                     "nan", "infinity", "1_000", "1,5", "abc", "", " ", " 1.5 ", "\t-2.25", "1.5 x", "١", "1.0\u{0}",
                     String(repeating: "1", count: 63), String(repeating: "1", count: 64)]
        for c in cases {
            let want = Self.standardDouble(Substring(c))
            #expect(Self.byteDouble(Substring(c))?.bitPattern == want?.bitPattern, "'\(c)': \(String(describing: Self.byteDouble(Substring(c)))) vs \(String(describing: want))")
            let trimmed = c.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            var bytes = Array(trimmed.utf8)
            if let fast = bytes.withUnsafeMutableBufferPointer({ ByteText.plainDecimal(UnsafeBufferPointer($0)) }) {
                #expect(fast.bitPattern == Double(Substring(trimmed))?.bitPattern, "'\(c)': fast path \(fast)")
            }
        }
    }

    /// A row the fast path refuses goes to the general one: values with exponents or long
    /// mantissas read as the standard parser reads them, and garbage fails with the same line as
    /// before the fast path (file, line, field and column named).
    @Test func rowsOffTheFastPathReadAndFailAsBefore() throws {
        // "1." is not a plain decimal but the full parser reads it (as before the fast path).
        let good = Self.write("# units: g\nt,ax,ay,az\n0.00,1e-3,-2.5E+1,1.01234567890123456\n0.01 , +0.5,  -0 ,1.\n", name: "slow.csv")
        let r = try MotionReader().read(path: good).samples
        #expect(r.map(\.ax.bitPattern) == [Double("1e-3")!.bitPattern, 0.5.bitPattern])
        #expect(r.map(\.ay.bitPattern) == [Double("-2.5E+1")!.bitPattern, (-0.0).bitPattern])
        #expect(r.map(\.az.bitPattern) == [Double("1.01234567890123456")!.bitPattern, Double("1.")!.bitPattern])
        #expect(r.map(\.t) == [0, 0.01])
        let bad: [(String, String)] = [
            ("0.02,0,zero,1", "4: 'zero' in column ay is not a finite number"),
            ("0.02,1e,0,1", "4: '1e' in column ax is not a finite number"),
            ("0.02,0,0,1e400", "4: '1e400' in column az is not a finite number"),
            ("0.02,0,0,nan", "4: 'nan' in column az is not a finite number"),
            ("0.02,0,,1", "4: '' in column ay is not a finite number"),
            ("x,0,0,1", "4: 'x' in column t is not a finite number"),
            ("0.02,0,0", "4: expected 4 fields, found 3"),
            ("0.02,0,0,1,", "4: expected 4 fields, found 5"),
            ("0.02,0,0,1,2", "4: expected 4 fields, found 5"),
            ("0.005,0,0,1", "4: time goes back from 0.01 s to 0.005 s"),
        ]
        for (i, (row, message)) in bad.enumerated() {
            let path = Self.write("# units: g\nt,ax,ay,az\n0.01,0,0,1\n\(row)\n", name: "garbage\(i).csv")
            #expect(throws: MotionError.self) { try MotionReader().read(path: path) }
            do { _ = try MotionReader().read(path: path) } catch {
                #expect("\(error)" == "\(path):\(message)", "row '\(row)'")
            }
        }
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
