import Foundation
import Testing
import SkateCore
@testable import SkateRide

@Suite struct ISO8608Tests {
    @Test func classValuesFollowTheStandard() {
        #expect(ISO8608.RoadClass.A.gd0 == 16e-6)
        #expect(ISO8608.RoadClass.B.gd0 == 64e-6)
        #expect(ISO8608.RoadClass.C.gd0 == 256e-6)
        #expect(abs(ISO8608.RoadClass.H.gd0 - 262_144e-6) < 1e-12)
        #expect(ISO8608.RoadClass.A.upperBound == 32e-6 && ISO8608.RoadClass.B.lowerBound == 32e-6)
        #expect(ISO8608.RoadClass(gd0: 100e-6) == .B)
        #expect(ISO8608.RoadClass(gd0: 1) == .H)
        // Gd(n) = Gd(n0) (n/n0)^-2.
        #expect(abs(ISO8608.displacementPSD(1, gd0: 16e-6) - 16e-8) < 1e-20)
        #expect(abs(ISO8608.displacementPSD(0.05, gd0: 16e-6) - 64e-6) < 1e-18)
    }

    @Test func seededGeneratorIsDeterministic() {
        var a = SeededGenerator(seed: 99), b = SeededGenerator(seed: 99), c = SeededGenerator(seed: 100)
        let xa = (0..<5).map { _ in a.next() }, xb = (0..<5).map { _ in b.next() }, xc = (0..<5).map { _ in c.next() }
        #expect(xa == xb && xa != xc)
        var u = SeededGenerator(seed: 1)
        let units = (0..<10_000).map { _ in u.nextUnit() }
        #expect(units.allSatisfy { $0 >= 0 && $0 < 1 })
        #expect(abs(units.reduce(0, +) / 10_000 - 0.5) < 0.02)
        var gsn = SeededGenerator(seed: 2)
        let gs = (0..<10_000).map { _ in gsn.nextGaussian() }
        let mean = gs.reduce(0, +) / 10_000
        let sd = (gs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 10_000).squareRoot()
        #expect(abs(mean) < 0.05 && abs(sd - 1) < 0.05)
    }

    /// The synthesizer's contract: for each roughness class, 30 s of synthesised vibration at
    /// 4 m/s, run through the roughness engine, measures in that class.
    @Test func synthesizedRoadsMeasureInTheirIntendedClass() throws {
        for cls in RoughnessClass.allCases {
            let road = ISO8608.roadClass(for: cls)
            var syn = VibrationSynthesizer(roadClass: road, seed: 8608 + UInt64(cls.rawValue))
            let samples = syn.samples(duration: 30, speed: 4)
            #expect(samples.count == 3000)
            let w = try RoughnessEngine.windows(for: samples, sampleRate: 100)
            let robust = try #require(RoughnessEngine.robustRMS(for: w))
            #expect(RoughnessClass(rms: robust) == cls, "\(cls.name) from ISO \(road.name): \(robust) g")
            let predicted = ISO8608.predictedRMS(gd0: road.gd0, speed: 4)
            #expect(abs(robust - predicted) / predicted < 0.1, "\(cls.name): measured \(robust), predicted \(predicted)")
            #expect(abs(syn.distance - 120) < 1e-6)
        }
    }

    @Test func classesHoldAcrossSkatingSpeeds() {
        for cls in RoughnessClass.allCases {
            for v in [3.0, 5.0] {
                let r = ISO8608.predictedRMS(gd0: ISO8608.roadClass(for: cls).gd0, speed: v)
                #expect(RoughnessClass(rms: r) == cls, "\(cls.name) at \(v) m/s: \(r)")
            }
        }
        // RMS ∝ √(Gd·v): one class up doubles it, four times the speed doubles it.
        let a4 = ISO8608.predictedRMS(gd0: ISO8608.RoadClass.A.gd0, speed: 4)
        #expect(abs(ISO8608.predictedRMS(gd0: ISO8608.RoadClass.B.gd0, speed: 4) / a4 - 2) < 1e-9)
        #expect(abs(a4 - ISO8608.classAReferenceRMS) < 1e-12)
        // Target RMS → level → back.
        let gd = ISO8608.gd0(forTargetRMS: 0.15, speed: 4)
        #expect(abs(ISO8608.predictedRMS(gd0: gd, speed: 4) - 0.15) < 1e-9)
        #expect(ISO8608.roadClass(forTargetRMS: 0.15, speed: 4) == .C)
        #expect(ISO8608.roadClass(forTargetRMS: 0.04, speed: 4) == .A)
    }

    @Test func sameSeedSameSamplesAndStandingStillIsSilent() {
        var a = VibrationSynthesizer(roadClass: .C, seed: 42)
        var b = VibrationSynthesizer(roadClass: .C, seed: 42)
        var c = VibrationSynthesizer(roadClass: .C, seed: 43)
        let sa = a.samples(duration: 2, speed: 4.2), sb = b.samples(duration: 2, speed: 4.2), sc = c.samples(duration: 2, speed: 4.2)
        #expect(sa == sb)
        #expect(sa != sc)
        var d = VibrationSynthesizer(roadClass: .D, seed: 1)
        #expect(d.next(speed: 0) == 0)
        #expect(d.distance == 0)
        #expect(d.next(speed: .nan) == 0)
        // Varying speed and level mid-stream stays finite.
        for i in 0..<500 {
            if i == 250 { d.gd0 = ISO8608.RoadClass.A.gd0 }
            #expect(d.next(speed: 2 + Double(i % 50) / 10).isFinite)
        }
    }
}
