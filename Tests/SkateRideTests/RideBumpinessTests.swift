import Foundation
import SkateCore
import SkateRide
import Testing

/// Issue 28 must-have 5: the ride session measures bumpiness while it plays, gated by its motion
/// state and the body-motion gate, and reports it in the summary beside the robust roughness; a
/// degraded stream reports why, not a number. Seeded synthetic rides (ISO 8608 rolling at 4 m/s,
/// 100 Hz, 1 Hz fixes on a straight line, no map). `swift test --filter RideBumpinessTests` prints the figures.
@Suite struct RideBumpinessTests {
    static let rate = 100.0
    static let start = 1_777_629_600.0  // 2026-05-01T10:00:00Z
    static let seconds = 90.0
    static let speed = 4.0

    /// Rolling on ISO class B for `seconds`, class D between `rough` (s after the start) when given.
    static func motion(rough: Range<Double>? = nil) -> [MotionSample] {
        var b = VibrationSynthesizer(roadClass: .B, seed: 21, sampleRate: rate)
        var d = VibrationSynthesizer(roadClass: .D, seed: 22, sampleRate: rate)
        let smooth = withSensorNoise(b.samples(duration: seconds, speed: speed, startTime: start))
        guard let rough else { return smooth }
        let bumpy = d.samples(duration: seconds, speed: speed, startTime: start)
        return zip(smooth, bumpy).map { rough.contains($0.t - start) ? MotionSample(t: $1.t, ax: $0.ax, ay: $0.ay, az: $1.az) : $0 }
    }

    /// The synthesizer writes only the vertical; a real sensor's other axes are never flat
    /// (flat ones read as stuck axes, a degraded stream): ±3 mg of seeded noise on x and y.
    static func withSensorNoise(_ s: [MotionSample]) -> [MotionSample] {
        var rng = SeededGenerator(seed: 23)
        return s.map { MotionSample(t: $0.t, ax: 0.003 * Double.random(in: -1...1, using: &rng), ay: 0.003 * Double.random(in: -1...1, using: &rng), az: $0.az) }
    }

    /// The ride: fixes every second heading north at `speed`, and the motion.
    static func ride(_ motion: [MotionSample]) -> RideSummary {
        var inputs: [RideInput] = motion.map { .motion($0) }
        for k in 0...Int(seconds) {
            let north = speed * Double(k) / 111_195
            inputs.append(.fix(GPXFix(time: start + Double(k), coordinate: Coordinate(lat: 43.7 + north, lon: 7.42))))
        }
        inputs.sort { $0.time < $1.time }
        let session = RideSession(plan: nil, planner: nil)
        session.run(inputs)
        return session.finish()
    }

    /// Shifted to ride time (s after the start), as the gate tests' helpers read time.
    static func shifted(_ s: [MotionSample], by dt: Double) -> [MotionSample] {
        s.map { MotionSample(t: $0.t + dt, ax: $0.ax, ay: $0.ay, az: $0.az) }
    }

    @Test func pushingAndCarvingDoNotRaiseItARoughStretchDoes() throws {
        let plain = Self.motion()
        // Pushes 20–40 s and carves 50–65 s (`BodyMotionGateTests`' strokes), in ride time.
        var body = Self.shifted(plain, by: -Self.start)
        BodyMotionGateTests.addPushes(&body, from: 20, to: 40)
        BodyMotionGateTests.addCarves(&body, from: 50, to: 65)
        body = Self.shifted(body, by: Self.start)
        let rough = Self.motion(rough: 30..<50)

        let p = try #require(Self.ride(plain).bumpiness), b = try #require(Self.ride(body).bumpiness)
        let r = try #require(Self.ride(rough).bumpiness)
        let pg = try #require(p.rms), bg = try #require(b.rms), rg = try #require(r.rms)
        // Without the gate the strokes would lift it (the offline figure over every sample).
        let ungatedPlain = try #require(Bumpiness.measure(plain, sampleRate: Self.rate))
        let ungatedBody = try #require(Bumpiness.measure(body, sampleRate: Self.rate))
        print("[ride bumpiness] ISO B 90 s: " + String(format: "%.4f g over %.1f s; with pushes and carves %.4f g over %.1f s (%.1f s left out; ungated %.4f → %.4f g); ISO D 30–50 s %.4f g",
                                                   pg, p.countedSeconds, bg, b.countedSeconds, b.bodyMotionSeconds, ungatedPlain, ungatedBody, rg))
        #expect(p.degraded == nil && b.degraded == nil && r.degraded == nil)
        #expect(ungatedBody > 1.03 * ungatedPlain, "the strokes should shake an ungated figure: \(ungatedBody) vs \(ungatedPlain) g")
        #expect(abs(bg - pg) <= 0.01 * pg, "pushing and carving moved bumpiness: \(bg) vs \(pg) g")
        #expect(b.bodyMotionSeconds >= 25, "pushes and carves left out: \(b.bodyMotionSeconds) s of 35")
        #expect(rg > 1.5 * pg, "20 s of ISO D should raise bumpiness: \(rg) vs \(pg) g")
        // Rolling only: the first second (standing start, filters settling) is not counted.
        #expect(p.countedSeconds > 80 && p.countedSeconds < Self.seconds, "counted \(p.countedSeconds) s")
    }

    @Test func reportedBesideTheRobustRoughness() throws {
        let s = Self.ride(Self.motion(rough: 30..<50))
        let robust = try #require(s.robustRMS)
        // The ride's median window: most of it is ISO B.
        let windows = try RoughnessEngine.windows(for: Self.motion(rough: 30..<50), sampleRate: Self.rate)
        let offline = try #require(RoughnessEngine.robustRMS(for: windows))
        #expect(abs(robust - offline) <= 0.25 * offline, "summary \(robust) g vs offline \(offline) g (speed-normalised at 4 m/s)")
        let json = try s.json()
        #expect(json.contains("\"bumpiness\" : {") && json.contains("\"robust_rms_g\""), "\(json)")
        #expect(s.text().contains("bumpiness"), "\(s.text())")
    }

    @Test func streamingMeterReadsWhatTheOfflineFigureReads() throws {
        var body = Self.shifted(Self.motion(), by: -Self.start)
        BodyMotionGateTests.addPushes(&body, from: 20, to: 40)
        var meter = BumpinessMeter(sampleRate: Self.rate)
        for s in body { meter.push(s, rolling: true) }
        meter.finish()
        let streamed = try #require(meter.rms)
        let offline = try #require(Bumpiness.measureGated(body, sampleRate: Self.rate))
        #expect(abs(streamed - offline) <= 0.02 * offline, "streamed \(streamed) g vs offline \(offline) g")
        // Not rolling: nothing counts.
        var still = BumpinessMeter(sampleRate: Self.rate)
        for s in body { still.push(s, rolling: false) }
        still.finish()
        #expect(still.rms == nil && still.countedSamples == 0)
    }

    @Test func gapsAndStuckAxesReportDegradedNotANumber() throws {
        // A 2 s hole at 40 s.
        let gappy = Self.motion().filter { !(40..<42).contains($0.t - Self.start) }
        // The vertical axis held for 10 samples at a time (sample-and-hold at 10 Hz: it changes in
        // a tenth of the samples, a stuck axis by `MotionQuality.stuckChangeShare`).
        var stuck = Self.motion()
        for i in stuck.indices where i % 10 != 0 { stuck[i].az = stuck[i - 1].az }
        // Two axes held: one reason, named once.
        var twoStuck = stuck
        for i in twoStuck.indices where i % 10 != 0 { twoStuck[i].ax = twoStuck[i - 1].ax }
        for (name, m) in [("gaps", gappy), ("stuck", stuck), ("two stuck", twoStuck)] {
            let b = try #require(Self.ride(m).bumpiness, "\(name): no bumpiness entry")
            print("[ride bumpiness] \(name): degraded \(b.degraded ?? "nil"), rms \(b.rms.map { String($0) } ?? "nil")")
            #expect(b.rms == nil, "\(name): a degraded stream gave a number: \(b.rms!)")
            #expect(b.degraded != nil, "\(name): not reported as degraded")
            // A reason is named once, however many axes carry it.
            let codes = (b.degraded ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(Set(codes).count == codes.count, "\(name): \(b.degraded ?? "")")
        }
        #expect(Self.ride(gappy).bumpiness?.degraded?.contains("gaps") == true)
    }

    @Test func noMotionNoEntry() {
        let s = Self.ride([])
        #expect(s.bumpiness == nil && s.robustRMS == nil)
    }
}
