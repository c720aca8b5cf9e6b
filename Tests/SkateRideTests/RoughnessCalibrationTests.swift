import Foundation
import Testing
import SkateCore
@testable import SkateRide
import SkateTestSupport

/// The calibration on real recordings (e-scooter sidewalk/street/standing, Correa tricks) and the
/// rate independence on synthetic ISO 8608 roads.
@Suite struct RoughnessCalibrationTests {
    static var scooterFolder: String { TestData.path("motion/escooter-sidewalk-street-techiepizza2020") }

    /// Every shipped e-scooter window through the real reader and engine: standing is event-free
    /// and butter; the event rate separates jointed sidewalk (higher) from asphalt street.
    @Test(.enabled(if: TestData.available, TestData.skip))
    func scooterWindowsSeparateByEventRate() throws {
        let ev = try RoughnessEvaluation.evaluate(folder: Self.scooterFolder, labels: ["sidewalk", "street", "standing"])
        print(ev.text())
        #expect(ev.failures.isEmpty, "\(ev.failures)")
        let standing = ev.files.filter { $0.label == "standing" }
        #expect(standing.count == 83)
        // No events in any standing window.
        for f in standing { #expect(f.events == 0, "\(f.path): \(f.events) events") }
        // Standing reads butter: every window's robust figure but one, whose 6.5 s show a
        // sustained 0.04–0.11 g vibration (02-05-155834, 0.060 g); none reads worse than okay.
        let butter = standing.filter { $0.robustClass == .butter }.count
        #expect(butter >= standing.count - 1, "\(butter) of \(standing.count) standing windows read butter")
        #expect(standing.allSatisfy { ($0.robustClass ?? .crusty) <= .okay && !$0.degraded })
        // Event rate: sidewalk > street with AUC ≥ 0.75. The rule reads the fitted strike, the
        // same at every rate (issue 28): 0.77 here at 200 Hz, where the 4–80 Hz band rule it
        // replaced read 0.89 from slab-joint edges no 50 Hz sensor sees (and 0.68 at 50 Hz).
        let aucEvents = try #require(ev.auc(.eventsPerMinute, "sidewalk", "street"))
        #expect(aucEvents >= 0.75, "events/min AUC \(aucEvents)")
        let sidewalk = try #require(ev.median(.eventsPerMinute, label: "sidewalk"))
        let street = try #require(ev.median(.eventsPerMinute, label: "street"))
        #expect(sidewalk > street)
        // Both riding classes are far from standing on every level measure. Events are not a
        // level: asphalt street mostly has no strike over 10 × its rolling, like standing.
        let jointed = try #require(ev.auc(.eventsPerMinute, "sidewalk", "standing"))
        #expect(jointed >= 0.75, "events/min: sidewalk > standing AUC \(jointed)")
        for m in RoughnessEvaluation.Measure.allCases where m != .eventsPerMinute {
            let a = try #require(ev.auc(m, "street", "standing"))
            #expect(a >= 0.75, "\(m.rawValue): street > standing AUC \(a)")
        }
        // The RMS measure and the naive baseline are printed beside each other; neither separates
        // the two surfaces on this vehicle, which is why the event rate carries the call.
        let aucRMS = try #require(ev.auc(.robustRMS, "sidewalk", "street"))
        let aucNaive = try #require(ev.auc(.naiveStd, "sidewalk", "street"))
        #expect(aucEvents > max(aucRMS, 1 - aucRMS) && aucEvents > max(aucNaive, 1 - aucNaive))
    }

    /// The same ISO 8608 road sampled at 50, 100 and 200 Hz measures within one class.
    @Test func isoClassesMeasureAlikeAt50100And200Hertz() throws {
        var table = "ISO class  50 Hz        100 Hz       200 Hz\n"
        for road in [ISO8608.RoadClass.A, .B, .C, .D] {
            var classes: [RoughnessClass] = []
            var line = "  " + road.name.padding(toLength: 9, withPad: " ", startingAt: 0)
            for rate in [50.0, 100.0, 200.0] {
                var syn = VibrationSynthesizer(roadClass: road, seed: 8608 + UInt64(road.rawValue), sampleRate: rate)
                let w = try RoughnessEngine.windows(for: syn.samples(duration: 30, speed: 4), sampleRate: rate)
                let r = try #require(RoughnessEngine.robustRMS(for: w))
                let c = RoughnessClass(rms: r)
                classes.append(c)
                line += String(format: "%.3f %@", r, c.name).padding(toLength: 13, withPad: " ", startingAt: 0)
                // Plain rolling on a uniform road has no events.
                #expect(w.compactMap(\.event).isEmpty, "ISO \(road.name) at \(rate) Hz")
            }
            table += line + "\n"
            let lo = classes.min()!.rawValue, hi = classes.max()!.rawValue
            #expect(hi - lo <= 1, "ISO \(road.name): \(classes.map(\.name))")
            #expect(classes[1] == RoughnessClass(rawValue: min(3, road.rawValue)), "ISO \(road.name) at 100 Hz: \(classes[1].name)")
        }
        print(table)
    }

    /// Correa tricks spliced into smooth rolling at 100 Hz: every trick gives at least one event
    /// (pop or landing) and the class stays butter; events per minute are reported.
    @Test(.enabled(if: TestData.available, TestData.skip))
    func tricksComeOutAsEvents() throws {
        let tricks = try CorreaTricks.load(folder: TestData.path("motion/skateboard-tricks-correa2017"))
        var rolling = TestSignals.rolling(duration: 120, rms: 0.04, seed: 77, gravity: (0, 0, -1))
        let picks = Array(stride(from: 0, to: tricks.count, by: max(1, tricks.count / 15))).prefix(15)
        for (k, idx) in picks.enumerated() {
            let start = 300 + k * 700
            for (j, x) in tricks[idx].samples.enumerated() {
                rolling[start + j] = MotionSample(t: rolling[start + j].t, ax: x.ax, ay: x.ay, az: x.az)
            }
        }
        let r = try RoughnessReport.make(samples: rolling, sampleRate: 100, speed: 4)
        #expect(r.robustClass == "butter", "\(r.robustClass ?? "nil")")
        for k in picks.indices {
            let t0 = Double(300 + k * 700) / 100
            #expect(r.events.contains { $0.t >= t0 - 0.05 && $0.t <= t0 + 0.9 }, "trick \(k) at \(t0) s")
        }
        // Nothing but the tricks: at most pop + landing (+ one touch) each.
        #expect(r.events.count <= 3 * picks.count, "\(r.events.count)")
        #expect(r.eventsPerMinute > 0 && r.eventsPer100m != nil)
        print(String(format: "tricks: %d events in %.0f s (%.1f per min, %.2f per 100 m at 4 m/s), robust %@",
                     r.events.count, r.durationSeconds, r.eventsPerMinute, r.eventsPer100m ?? 0, r.robustClass ?? "-"))
    }

    /// Speed normalisation: RMS ∝ √v, brought to 4 m/s.
    @Test func speedNormalisationFollowsTheSquareRootLaw() throws {
        #expect(RoughnessCalibration.speedFactor(speed: nil) == 1)
        #expect(RoughnessCalibration.speedFactor(speed: 0.3) == 1)
        #expect(abs(RoughnessCalibration.speedFactor(speed: 16) - 0.5) > 0.1)  // clamped at 10 m/s
        #expect(abs(RoughnessCalibration.speedFactor(speed: 1) - (4 / 1.5).squareRoot()) < 1e-12)
        // The same ISO B road at 2.5 and 6 m/s reads alike once normalised.
        var figures: [Double] = []
        for v in [2.5, 6.0] {
            var syn = VibrationSynthesizer(roadClass: .B, seed: 5)
            let raw = try RoughnessEngine.windows(for: syn.samples(duration: 20, speed: v), sampleRate: 100)
            let norm = raw.map { $0.normalised(speed: v) }
            figures.append(try #require(RoughnessEngine.robustRMS(for: norm)))
        }
        #expect(abs(figures[0] - figures[1]) / figures[1] < 0.15, "\(figures)")
        #expect(figures.allSatisfy { RoughnessClass(rms: $0) == .okay })
    }
}
