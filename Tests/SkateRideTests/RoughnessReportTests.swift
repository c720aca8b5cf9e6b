import Foundation
import Testing
import SkateCore
@testable import SkateRide
import SkateTestSupport

@Suite struct RoughnessReportTests {
    static func writeCSV(_ samples: [MotionSample], units: String = "g", name: String = "ride.csv") -> String {
        var text = "# synthetic\n# units: \(units)\nt,ax,ay,az\n"
        for s in samples { text += "\(s.t),\(s.ax),\(s.ay),\(s.az)\n" }
        let path = TestData.temporaryDirectory("rough").appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    @Test func reportHasSeriesHistogramAndStableJSON() throws {
        // 10 s butter then 10 s meh.
        var s = TestSignals.rolling(duration: 10, rms: 0.03, seed: 1)
        let meh = TestSignals.rolling(duration: 10, rms: 0.16, seed: 2)
        s += meh.map { MotionSample(t: $0.t + 10, ax: $0.ax, ay: $0.ay, az: $0.az) }
        let path = Self.writeCSV(s)
        let r = try RoughnessReport.make(path: path)
        #expect(abs(r.sampleRate - 100) < 1e-6)
        #expect(r.sampleCount == 2000)
        #expect(r.series.count == 196)  // windows end at 0.4, 0.5, … 19.9 s
        let butter = try #require(r.secondsByClass["butter"]), mehS = try #require(r.secondsByClass["meh"])
        #expect(butter >= 9.2 && butter <= 10, "\(r.secondsByClass)")
        // The step onto meh is flagged as shock for up to ~1.5 s while the baseline catches up.
        #expect(mehS >= 8 && mehS <= 10, "\(r.secondsByClass)")
        #expect(r.impactSeconds <= 1.6, "\(r.impactSeconds)")
        #expect(abs(r.secondsByClass.values.reduce(0, +) + r.impactSeconds - 19.6) < 1e-9)
        #expect(Set(r.secondsByClass.keys) == ["butter", "okay", "meh", "crusty"])
        let json = try r.json()
        #expect(try json == r.json())
        #expect(json.contains("\"seconds_by_class\":{\"butter\":"))
        let back = try JSONDecoder().decode(RoughnessReport.self, from: Data(json.utf8))
        #expect(back == r)
        let text = r.text()
        #expect(text.contains("seconds by class:"))
        #expect(text.contains("t_s,rms_g,class,impact"))
        #expect(text.split(separator: "\n").count > 196)
        #expect(!r.text(includeSeries: false).contains("t_s,"))
    }

    @Test func ndjsonInMetresPerSecondSquaredReadsLikeCSV() throws {
        var syn = VibrationSynthesizer(roadClass: .B, seed: 5)
        let samples = syn.samples(duration: 6, speed: 4)
        var text = "{\"units\":\"m/s^2\"}\n"
        for s in samples { text += "{\"t\":\(s.t),\"ax\":\(s.ax * 9.80665),\"ay\":\(s.ay * 9.80665),\"az\":\(s.az * 9.80665)}\n" }
        let path = TestData.temporaryDirectory("rough").appendingPathComponent("ride.ndjson").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        let fromFile = try RoughnessReport.make(path: path)
        let inMemory = try RoughnessReport.make(samples: samples, file: path)
        #expect(fromFile.robustClass == "okay")
        let a = try #require(fromFile.robustRMS), b = try #require(inMemory.robustRMS)
        #expect(abs(a - b) < 1e-9)
        #expect(fromFile.series.count == inMemory.series.count)
    }

    @Test func rateOverrideAndErrors() throws {
        let s = TestSignals.sine(frequency: 20, amplitude: 0.1, duration: 2)
        let path = Self.writeCSV(s, name: "sine.csv")
        let r = try RoughnessReport.make(path: path, sampleRate: 100)
        #expect(r.robustClass == "okay")   // 0.1/√2 = 0.071 g
        do {
            _ = try RoughnessReport.make(path: path, sampleRate: 10)
            Issue.record("10 Hz accepted")
        } catch let e as RoughnessReportError {
            #expect(e.description.hasPrefix(path) && e.description.contains("10 Hz"))
        }
        let slow = Self.writeCSV(s.enumerated().map { MotionSample(t: Double($0.offset) / 10, ax: 0, ay: 0, az: $0.element.az) }, name: "slow.csv")
        #expect(throws: RoughnessReportError.self) { try RoughnessReport.make(path: slow) }
        let r50 = try RoughnessReport.make(samples: TestSignals.sine(frequency: 12, amplitude: 0.1, duration: 2, rate: 50))
        #expect(r50.notes.contains { $0.contains("4–20 Hz") })
        #expect(r50.bandHighHz == 20 && r50.eventBandHighHz == 20)
    }
}

@Suite struct RoughnessBenchmarkTests {
    /// One hour at 100 Hz through the streaming engine, nothing retained but the engine: every
    /// window is published once, the look-ahead's last ones by `finish()`. Prints the time.
    @Test func oneHourAtHundredHertzStreams() throws {
        var engine = try RoughnessEngine(sampleRate: 100)
        var smooth = SmoothnessEngine()
        var state: UInt64 = 12345
        var published = 0
        var crusty = 0
        let start = ContinuousClock.now
        for i in 0..<360_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = (Double(state >> 11) / 9_007_199_254_740_992.0 - 0.5) * 0.2
            let t = Double(i) / 100
            if let w = engine.push(MotionSample(t: t, ax: 0.01, ay: 0, az: 1 + noise)) {
                published += 1
                smooth.push(w)
                if w.roughnessClass == .crusty { crusty += 1 }
            }
        }
        published += engine.finish().count  // the look-ahead's last windows
        let elapsed = ContinuousClock.now - start
        print("roughness engine: 360,000 samples in \(elapsed) (\(published) windows)")
        #expect(published == 35_996)  // windows end at 0.4 … 3599.9 s
        #expect(crusty == 0)
        // No time limit here: speed targets live in `ride --benchmark` (a timed unit test fails on
        // a loaded machine, not on a slow engine).
    }
}
