import Foundation
import SkateRide
import SkateTestSupport
import Testing

/// Issue 28 must-have 6: impulsiveness (excess kurtosis of the bumpiness band) separates jointed
/// sidewalk from asphalt within a recording day at least as well as the naive standard deviation.
/// Nothing is fitted, so the figures are out of sample.
@Suite struct ImpulsivenessTests {
    static var scooterFolder: String { TestData.path("motion/escooter-sidewalk-street-techiepizza2020") }

    @Test func evenRollingReadsNearZeroAndTheSameEnergyInJoltsReadsHigh() throws {
        var v = VibrationSynthesizer(roadClass: .C, seed: 9, sampleRate: 100)
        let even = v.samples(duration: 20, speed: 4)
        let k = try #require(Bumpiness.impulsiveness(even, sampleRate: 100))
        // Jolts every 0.5 s on a quiet (class A) road.
        var quiet = VibrationSynthesizer(roadClass: .A, seed: 9, sampleRate: 100)
        var jolts = quiet.samples(duration: 20, speed: 4)
        for i in jolts.indices where Int((jolts[i].t * 100).rounded()) % 50 == 0 { jolts[i].az += 1.5 }
        let kj = try #require(Bumpiness.impulsiveness(jolts, sampleRate: 100))
        print("[impulsiveness] ISO C rolling \(String(format: "%.2f", k)), class A with a jolt every 0.5 s \(String(format: "%.2f", kj))")
        #expect(abs(k) < 1, "even rolling should read near 0: \(k)")
        #expect(kj > 10, "jolts should read impulsive: \(kj)")
        #expect(Bumpiness.impulsiveness(Array(even.prefix(120)), sampleRate: 100) == nil, "0.2 s after settling is too few samples")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: TestData.path("motion/escooter-sidewalk-street-techiepizza2020/sidewalk")),
                   "../shared/data e-scooter set is absent"), arguments: [50.0, 200.0])
    func withinADayItSeparatesSidewalkFromStreetAtLeastAsWellAsTheNaiveStd(rate: Double) throws {
        var by: [String: [(sidewalk: Bool, k: Double?, std: Double)]] = [:]
        for (label, sidewalk) in [("sidewalk", true), ("street", false)] {
            let dir = Self.scooterFolder + "/" + label
            let paths = try FileManager.default.subpathsOfDirectory(atPath: dir).map { dir + "/" + $0 }
                .filter { ScooterWindow.matches(path: $0) && DayOutEvaluation.day(ofPath: $0) != nil }
            for p in paths {
                var s = try ScooterWindow.load(path: p)
                if rate != ScooterWindow.sampleRate { s = DayOutEvaluation.resample(s, from: ScooterWindow.sampleRate, to: rate) }
                by[DayOutEvaluation.day(ofPath: p)!, default: []].append((sidewalk, Bumpiness.impulsiveness(s, sampleRate: rate),
                                                                          RoughnessEvaluation.naiveVerticalStd(s)))
            }
        }
        var checked = 0
        for (day, fs) in by.sorted(by: { $0.key < $1.key }) where fs.contains(where: \.sidewalk) && fs.contains(where: { !$0.sidewalk }) {
            let k = try #require(RoughnessEvaluation.auc(fs.filter(\.sidewalk).compactMap(\.k), fs.filter { !$0.sidewalk }.compactMap(\.k)))
            let n = try #require(RoughnessEvaluation.auc(fs.filter(\.sidewalk).map(\.std), fs.filter { !$0.sidewalk }.map(\.std)))
            print("[impulsiveness] \(Int(rate)) Hz within \(day): AUC impulsiveness \(String(format: "%.3f", k)), naive std \(String(format: "%.3f", n))")
            #expect(k >= n, "within \(day) at \(rate) Hz: impulsiveness \(k) < naive std \(n)")
            checked += 1
        }
        #expect(checked >= 2, "the set should have two days with both classes")
    }
}
