import Foundation
@testable import SkateRide
import Testing

/// Issue 28: `roughness --evaluate --day-out` scores each recording day with the event rule
/// fitted on the other days, never on itself.
@Suite struct DayOutEvaluationTests {
    @Test func daysComeFromScooterFileNames() {
        #expect(DayOutEvaluation.day(ofPath: "/d/sidewalk/good/02-01-101455") == "02-01")
        #expect(DayOutEvaluation.day(ofPath: "/d/ride.csv") == nil)
        #expect(DayOutEvaluation.day(ofPath: "/d/2020-02-01.csv") == nil)
    }

    @Test func resamplingAveragesGroups() {
        let s = (0..<8).map { MotionSample(t: Double($0) / 200, ax: 0, ay: 0, az: Double($0)) }
        let r = DayOutEvaluation.resample(s, from: 200, to: 50)
        let az: [Double] = r.map(\.az), t: [Double] = r.map(\.t)
        let wantT: [Double] = [3.0 / 200, 7.0 / 200]
        #expect(az == [1.5, 5.5])
        #expect(t == wantT)
    }

    /// Rule 0 separates the classes on days A and B and inverts them on day C; the calibrated rule
    /// separates nothing. In-sample, the refit looks good; held out, day C is scored with rule 0
    /// fitted on A and B and comes out inverted, so the day-out figure is lower. An evaluation
    /// that fitted on the held-out day too would not see it.
    @Test func aRuleFittedOnOtherDaysIsScoredOnTheHeldOutDay() throws {
        let n = DayOutEvaluation.floors.count * DayOutEvaluation.ratios.count
        func file(_ label: String, _ day: String, _ rule0: Double) -> DayOutEvaluation.File {
            var epm = [Double](repeating: 5, count: n)
            epm[0] = rule0
            return DayOutEvaluation.File(label: label, day: day, eventsPerMinute: epm, robustRMS: 0.2, bumpiness: 0.3, naiveStd: 0.4)
        }
        var files: [DayOutEvaluation.File] = []
        for d in ["A", "B"] {
            files += [file("sidewalk", d, 30), file("sidewalk", d, 28), file("street", d, 5), file("street", d, 6)]
        }
        files += [file("sidewalk", "C", 4), file("sidewalk", "C", 3), file("street", "C", 40), file("street", "C", 41)]
        let ev = DayOutEvaluation(positive: "sidewalk", negative: "street", files: files, rate: 200)
        let e = ev.eventsAUC()
        #expect(e.calibrated == 0.5)
        #expect(e.rules.first { $0.day == "C" }.map { ($0.floor, $0.ratio) } ?? (0, 0) == (DayOutEvaluation.floors[0], DayOutEvaluation.ratios[0]))
        let refit = try #require(e.refitted), out = try #require(e.dayOut)
        #expect(out < refit, "day-out \(out) should fall below the in-sample refit \(refit)")
        #expect(ev.text().contains("day-out"))
    }
}
