import Foundation
import Testing
import SkateCore
@testable import SkateRide
import SkateTestSupport

/// Input sanity said out loud: GPS jumps, repeated or sub-second times, stuck and malformed
/// motion streams.
@Suite struct SensingSanityTests {
    static let start = 1_777_629_600.0
    static let origin = Coordinate(lat: 43.7384, lon: 7.4246)

    /// A straight 1 Hz trace eastwards at `speed` m/s for `seconds`, fixes `dt` apart.
    static func trace(seconds: Double, speed: Double = 4, dt: Double = 1) -> [GPXFix] {
        let proj = LocalProjection(origin: origin)
        return stride(from: 0.0, through: seconds, by: dt).map { t in
            GPXFix(time: start + t, coordinate: proj.unproject(x: speed * t, y: 0))
        }
    }

    /// Rolling vibration at 100 Hz held for `hold` samples at a time (sample-and-hold: a stuck
    /// stream repeats each value hold − 1 times).
    static func heldMotion(seconds: Double, hold: Int, startTime: Double = start) -> [MotionSample] {
        let rolling = TestSignals.rolling(duration: seconds, rms: 0.1, seed: 4)
        return rolling.enumerated().map { i, s in
            let h = rolling[i - i % hold]
            return MotionSample(t: startTime + s.t, ax: h.ax, ay: h.ay, az: h.az)
        }
    }

    /// The issue's case: a 300 m jump at start-up and a stuck motion stream. The jump is dropped
    /// and reported (no 298 km/h maximum), the stuck stream warns and is not measured as smooth.
    @Test func startupJumpDroppedAndStuckStreamWarns() throws {
        var fixes = Self.trace(seconds: 120)
        let proj = LocalProjection(origin: Self.origin)
        fixes[0].coordinate = proj.unproject(x: 0, y: 300)  // the receiver's first fix is 300 m off
        let motion = Self.heldMotion(seconds: 120, hold: 16)  // 94 % repeated values
        let session = RideSession(plan: nil, planner: nil)
        var warnings: [String] = []
        session.onEvent = { if case .warning(_, let m) = $0 { warnings.append(m) } }
        session.run(StreamMerge.ride(fixes: fixes, motion: motion))
        let s = session.finish()
        #expect(s.gpsJumps == 1)
        #expect(s.droppedFixes >= 1 && s.droppedFixes <= 3, "\(s.droppedFixes)")
        #expect(s.maxSpeed < 5, "max \(s.maxSpeed * 3.6) km/h")
        #expect(abs(s.distance - 4 * 117) < 20, "distance \(s.distance)")
        #expect(warnings.contains { $0.contains("start-up jump") && $0.contains("300 m") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("low_effective_rate") }, "\(warnings)")
        #expect(s.motionDegraded)
        // Not silently smooth: no metres classed, no stability verdict from the stuck stream.
        #expect(s.metresByClass.values.reduce(0, +) == 0, "\(s.metresByClass)")
        let json = try s.json()
        #expect(json.contains("\"dropped_fixes\" : \(s.droppedFixes)") && json.contains("\"gps_jumps\" : 1"))
        #expect(s.text().contains("gps: ") && s.text().contains("motion stream stuck"))

        // The same trace without the jump and with a live stream: nothing dropped, no warning.
        let clean = RideSession(plan: nil, planner: nil)
        clean.run(StreamMerge.ride(fixes: Self.trace(seconds: 120), motion: Self.heldMotion(seconds: 120, hold: 1)))
        let c = clean.finish()
        #expect(c.gpsJumps == 0 && c.droppedFixes == 0 && !c.motionDegraded)
        #expect(c.metresByClass.values.reduce(0, +) > 400)
        #expect(abs(c.maxSpeed - 4) < 0.5)
    }

    /// The speed limit is configurable: 60 km/h by default, a 50 km/h downhill survives a higher one.
    @Test func fixSpeedLimitIsConfigurable() {
        let fast = Self.trace(seconds: 60, speed: 50 / 3.6)
        let strict = RideSession(plan: nil, planner: nil)
        strict.maxFixSpeed = 30 / 3.6
        strict.run(fast.map(RideInput.fix))
        let a = strict.finish()
        #expect(a.droppedFixes > 0 || a.gpsJumps > 0)
        let loose = RideSession(plan: nil, planner: nil)
        loose.run(fast.map(RideInput.fix))
        let b = loose.finish()
        #expect(b.droppedFixes == 0 && b.gpsJumps == 0)
        #expect(abs(b.maxSpeed * 3.6 - 50) < 3, "\(b.maxSpeed * 3.6)")
        #expect(abs(b.maxFixSpeed - FixFilter.defaultMaxFixSpeed) < 1e-12)
    }

    /// Sub-second GPX times: a 5 Hz trace reports its real speed; a file whose fixes share one
    /// time is not summarised at hundreds of km/h.
    @Test func subSecondAndRepeatedGPXTimes() throws {
        let dir = TestData.temporaryDirectory("gpx")
        defer { try? FileManager.default.removeItem(at: dir) }
        func gpx(_ fixes: [(Double, Coordinate)]) -> String {
            let f = ISO8601DateFormatter()
            f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            var s = "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"t\"><trk><trkseg>\n"
            for (t, c) in fixes {
                s += "<trkpt lat=\"\(c.lat)\" lon=\"\(c.lon)\"><time>\(f.string(from: Date(timeIntervalSince1970: t)))</time></trkpt>\n"
            }
            return s + "</trkseg></trk></gpx>\n"
        }
        let fiveHz = Self.trace(seconds: 30, speed: 4, dt: 0.2).map { ($0.time!, $0.coordinate) }
        let p1 = dir.appendingPathComponent("5hz.gpx").path
        _ = FileManager.default.createFile(atPath: p1, contents: Data(gpx(fiveHz).utf8))
        let src = try RideSource.open(p1)
        #expect(src.fixes.count == 151)
        let s1 = RideSession(plan: nil, planner: nil)
        try src.forEachInput { s1.feed($0) }
        let a = s1.finish()
        #expect(abs(a.averageSpeed - 4) < 0.3, "average \(a.averageSpeed)")
        #expect(abs(a.maxSpeed - 4) < 0.5, "max \(a.maxSpeed)")
        #expect(a.droppedFixes == 0)

        // 50 fixes 1 m apart, all at one time (what Mojstrovka.gpx holds).
        let same = (0..<50).map { k in (Self.start + 0.207, LocalProjection(origin: Self.origin).unproject(x: Double(k), y: 0)) }
        let p2 = dir.appendingPathComponent("same.gpx").path
        _ = FileManager.default.createFile(atPath: p2, contents: Data(gpx(same).utf8))
        let s2 = RideSession(plan: nil, planner: nil)
        var warnings: [String] = []
        s2.onEvent = { if case .warning(_, let m) = $0 { warnings.append(m) } }
        try RideSource.open(p2).forEachInput { s2.feed($0) }
        let b = s2.finish()
        #expect(b.droppedFixes == 49)
        #expect(b.averageSpeed * 3.6 < 60 && b.maxSpeed >= b.averageSpeed)
        #expect(warnings.contains { $0.contains("repeat the previous fix's time") })

        // The real file behind the issue's "average 180 km/h, max 0": 183 fixes at one time, one
        // 0.3 ms earlier.
        if TestData.available {
            let real = try RideSource.open(TestData.path("gpx/gpxpy-testfiles/Mojstrovka.gpx"))
            let s3 = RideSession(plan: nil, planner: nil)
            try real.forEachInput { s3.feed($0) }
            let c = s3.finish()
            #expect(c.averageSpeed * 3.6 < 60 && c.maxSpeed * 3.6 < 60, "average \(c.averageSpeed * 3.6) km/h, max \(c.maxSpeed * 3.6)")
            #expect(c.droppedFixes >= 182)
        }
    }

    // MARK: Motion streams

    static func writeCSV(_ samples: [MotionSample], header: String = "t,ax,ay,az", units: String = "g", name: String) -> String {
        var text = "# units: \(units)\n\(header)\n"
        for s in samples { text += "\(s.t),\(s.ax),\(s.ay),\(s.az)\n" }
        let path = TestData.temporaryDirectory("motion").appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    @Test func stuckAndDeadStreamsAreDegradedNotSmooth() throws {
        let stuck = try RoughnessReport.make(samples: Self.heldMotion(seconds: 20, hold: 16))
        #expect(stuck.warnings.contains { $0.code == "low_effective_rate" && $0.degrades })
        #expect(stuck.degraded && stuck.robustClass == nil && stuck.effectiveRate < 10)
        #expect(stuck.text().contains("not trusted"))
        // A dead sensor: one value for ever.
        let dead = try RoughnessReport.make(samples: (0..<2000).map { MotionSample(t: Double($0) / 100, ax: 0, ay: 0, az: 1) })
        #expect(dead.degraded && dead.robustClass == nil)
        #expect(dead.warnings.filter { $0.code == "stuck_axis" }.count == 3)
        // A quiet live sensor (parked, ±1 step of 0.001 g noise) is butter, not stuck.
        var rng = SeededGenerator(seed: 3)
        let quiet = (0..<2000).map { i in MotionSample(t: Double(i) / 100, ax: 0, ay: 0, az: 1 + (rng.nextUnit() < 0.3 ? 0.001 : 0)) }
        let q = try RoughnessReport.make(samples: quiet)
        #expect(!q.degraded && q.robustClass == "butter", "\(q.warnings)")
        // A live rolling stream is not degraded (its synthetic x and y are constant: noted as such).
        let live = try RoughnessReport.make(samples: Self.heldMotion(seconds: 20, hold: 1))
        #expect(!live.degraded && live.robustClass != nil, "\(live.warnings)")
        #expect(live.warnings.map(\.code) == ["stuck_axis", "stuck_axis"] && live.warnings.allSatisfy { !$0.message.contains("az") })
        #expect(abs(live.effectiveRate - 100) < 2)
    }

    @Test func badMotionFilesGiveOneLineOrANamedWarning() throws {
        let rolling = TestSignals.rolling(duration: 5, rms: 0.05, seed: 8)
        // NaN / Inf: one line naming file, line and column.
        var nan = rolling
        nan[100].ay = .nan
        let pNaN = Self.writeCSV(nan, name: "nan.csv")
        #expect(throws: MotionError.self) { try RoughnessReport.make(path: pNaN) }
        do { _ = try RoughnessReport.make(path: pNaN) } catch { #expect("\(error)".contains("nan.csv:") && "\(error)".contains("not a finite number") && !"\(error)".contains("\n")) }
        var inf = rolling
        inf[7].az = .infinity
        let pInf = Self.writeCSV(inf, name: "inf.csv")
        do { _ = try RoughnessReport.make(path: pInf); Issue.record("inf accepted") } catch { #expect("\(error)".contains("not a finite number")) }
        // Time going back: one line.
        var back = rolling
        back[50].t = 0.1
        do { _ = try RoughnessReport.make(path: Self.writeCSV(back, name: "back.csv")); Issue.record("backward time accepted") } catch {
            #expect("\(error)".contains("time goes back"))
        }
        // Negative but increasing times are just times.
        let negative = rolling.map { MotionSample(t: $0.t - 100, ax: $0.ax, ay: $0.ay, az: $0.az) }
        #expect(try RoughnessReport.make(path: Self.writeCSV(negative, name: "neg.csv")).robustClass != nil)
        // Repeated timestamps (times printed to 10 ms at 200 Hz): named warning, rate from the span.
        let r200 = TestSignals.rolling(duration: 5, rate: 200, rms: 0.05, seed: 9)
        let coarse = r200.map { MotionSample(t: ($0.t * 100).rounded(.down) / 100, ax: $0.ax, ay: $0.ay, az: $0.az) }
        let rc = try RoughnessReport.make(path: Self.writeCSV(coarse, name: "coarse.csv"))
        #expect(abs(rc.sampleRate - 200) < 2, "\(rc.sampleRate)")
        #expect(rc.warnings.contains { $0.code == "repeated_timestamps" && !$0.degrades })
        // A single column: one line about the header.
        let single = TestData.temporaryDirectory("motion").appendingPathComponent("single.csv").path
        _ = FileManager.default.createFile(atPath: single, contents: Data("# units: g\naz\n1.0\n1.01\n".utf8))
        do { _ = try RoughnessReport.make(path: single); Issue.record("single column accepted") } catch {
            #expect("\(error)".contains("header must name columns"))
        }
        // Gravity on −x (sensor on its side): a named note, and the same figure as on +z.
        let onSide = rolling.map { MotionSample(t: $0.t, ax: -$0.az, ay: $0.ay, az: $0.ax) }
        let rs = try RoughnessReport.make(samples: onSide)
        let rz = try RoughnessReport.make(samples: rolling)
        #expect(rs.warnings.contains { $0.code == "gravity_axis" && $0.message.contains("-x") && !$0.degrades })
        #expect(abs((rs.robustRMS ?? 0) - (rz.robustRMS ?? 1)) < 0.002)
        // m/s² declared as g: gravity reads 9.8 g: named, degrading warning.
        let wrongUnits = rolling.map { MotionSample(t: $0.t, ax: $0.ax * 9.80665, ay: $0.ay * 9.80665, az: $0.az * 9.80665) }
        let ru = try RoughnessReport.make(samples: wrongUnits)
        #expect(ru.warnings.contains { $0.code == "units_suspect" } && ru.degraded && ru.robustClass == nil)
        // Under 40 Hz: one line.
        let slow = rolling.enumerated().filter { $0.offset % 4 == 0 }.map(\.element)  // 25 Hz
        do { _ = try RoughnessReport.make(path: Self.writeCSV(slow, name: "slow.csv")); Issue.record("25 Hz accepted") } catch {
            #expect("\(error)".contains("25 Hz") && "\(error)".contains("slow.csv"))
        }
        // NaN samples that reach the engine in memory are skipped and counted, never a crash.
        let rn = try RoughnessReport.make(samples: nan, sampleRate: 100)
        #expect(rn.warnings.contains { $0.code == "non_finite_values" })
    }
}
