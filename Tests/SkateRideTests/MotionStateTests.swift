import Foundation
@testable import SkateRide
import Testing

@Suite struct MotionStateTests {
    /// Feeds (duration, speed) legs at 10 Hz; returns the state after each leg.
    func run(_ legs: [(Double, Double)], rms: Double? = nil) -> [MotionState] {
        var m = MotionStateMachine()
        var t = 0.0
        var out: [MotionState] = []
        for (d, v) in legs {
            let end = t + d
            while t < end - 1e-9 { m.update(t: t, speed: v, rms: rms); t += 0.1 }
            out.append(m.state)
        }
        return out
    }

    @Test func statesWithHysteresis() {
        #expect(run([(5, 4.0)]) == [.rolling])
        #expect(run([(5, 1.4)]) == [.walking])
        // Speed noise at a standstill (0.6 m/s blips under 1 s) never leaves stationary.
        #expect(run([(0.5, 0.6), (0.5, 0.9), (0.5, 0.2)]) == [.stationary, .stationary, .stationary])
        // Rolling survives a 1.5 s dip to walking pace (switch hold 2 s), not a 3 s one.
        #expect(run([(5, 4.0), (1.5, 1.5), (2, 4.0)]) == [.rolling, .rolling, .rolling])
        #expect(run([(5, 4.0), (3, 1.5)]) == [.rolling, .walking])
        // 2.0 m/s is inside the band: walking stays walking, rolling stays rolling.
        #expect(run([(5, 1.4), (5, 2.0)]) == [.walking, .walking])
        #expect(run([(5, 4.0), (5, 2.0)]) == [.rolling, .rolling])
        // A slow push with the deck shaking is rolling.
        #expect(run([(5, 1.4)], rms: 0.12) == [.rolling])
        // Stopping takes 3 s.
        #expect(run([(5, 4.0), (2, 0.1)]) == [.rolling, .rolling])
        #expect(run([(5, 4.0), (4, 0.1)]) == [.rolling, .stationary])
    }

    @Test func autoPauseOnASixtySecondStop() {
        // 120 s rolling at 5 m/s, a 60 s stop (GPS wander 0–0.4 m/s), 120 s rolling again, at 10 Hz.
        var p = AutoPause()
        var changes: [AutoPause.Change] = []
        var t = 0.0
        var k = 0
        while t < 300 - 1e-9 {
            let stopped = t >= 120 && t < 180
            let v = stopped ? 0.4 * Double(k % 3) / 2 : 5
            if let c = p.update(t: t, speed: v) { changes.append(c) }
            t += 0.1; k += 1
        }
        #expect(changes.count == 2)
        guard case .paused(let at)? = changes.first, case .resumed(let rt, let d)? = changes.last else {
            Issue.record("expected a pause then a resume: \(changes)")
            return
        }
        #expect(abs(at - 120) < 0.2, "the pause starts where the stop started: \(at)")
        #expect(rt > 180 && rt < 181.5, "resumes within the move hold of moving again: \(rt)")
        #expect(abs(d - 60) < 1.5)
        #expect(abs(p.elapsed - 299.9) < 0.01)
        #expect(abs(p.movingTime - (p.elapsed - d)) < 1e-9 && abs(p.movingTime - 240) < 1.5)
        // A stop shorter than pauseAfter is part of the ride.
        var q = AutoPause()
        t = 0
        while t < 60 { _ = q.update(t: t, speed: (t >= 20 && t < 28) ? 0 : 5); t += 0.1 }
        #expect(q.pausedTime == 0 && !q.paused)
    }
}
