import Foundation
import SkateCore
import SkateRide
import Testing

/// A rider who walks the board up a cobbled street feels no wheels: the phone reads the gait
/// (1–3 Hz, below the roughness band) and sensor noise, which the engine reads as butter. Found
/// on Heidelberg (2026-11-27): a synthetic ride walking the 26 m of cobblestones up from
/// Kornmarkt (+6 %) showed "SURFACE butter" on the HUD and, replayed twice with `ride --learn`,
/// stored the cobbles as measured 0.007 g, so the next plan rode them as smooth. Only windows
/// felt while the motion state reads rolling are evidence about the surface.
@Suite struct WalkedStretchTests {
    static let rate = 100.0
    static let start = 1_777_629_600.0  // 2026-05-01T10:00:00Z
    static let walkSeconds = 60.0
    static let walkSpeed = 1.3   // m/s: walking pace, under `MotionStateMachine.rollSpeed`
    static let rollSeconds = 60.0
    static let rollSpeed = 4.0   // m/s: the ISO 8608 reference speed

    /// The gait the synthesiser walks with, sensor noise on every axis.
    static func walking(from t0: Double, seconds: Double) -> [MotionSample] {
        var rng = SeededGenerator(seed: 31)
        let n = Int(seconds * rate)
        return (0..<n).map { i in
            let t = Double(i) / rate
            let noise = { 0.003 * Double.random(in: -1...1, using: &rng) }
            return MotionSample(t: t0 + t, ax: noise(), ay: noise(),
                                az: 1 + RideSynthesizer.gaitG * sin(2 * Double.pi * RideSynthesizer.gaitHz * t) + noise())
        }
    }

    /// Walks the plan's line for `walkSeconds`, then rolls on ISO class D (crusty) for `rollSeconds`.
    static func replay(_ plan: RoutePlan, planner: Planner) -> (summary: RideSummary, walkingClasses: [RoughnessClass?]) {
        let line = RouteLine(plan: plan)
        var d = VibrationSynthesizer(roadClass: .D, seed: 32, sampleRate: rate)
        var rng = SeededGenerator(seed: 33)
        let rolled = d.samples(duration: rollSeconds, speed: rollSpeed, startTime: start + walkSeconds).map {
            MotionSample(t: $0.t, ax: 0.003 * Double.random(in: -1...1, using: &rng), ay: 0.003 * Double.random(in: -1...1, using: &rng), az: $0.az)
        }
        var inputs: [RideInput] = (walking(from: start, seconds: walkSeconds) + rolled).map { .motion($0) }
        for k in 0...Int(walkSeconds + rollSeconds) {
            let t = Double(k)
            let s = t <= walkSeconds ? walkSpeed * t : walkSpeed * walkSeconds + rollSpeed * (t - walkSeconds)
            inputs.append(.fix(GPXFix(time: start + t, coordinate: line.coordinate(atDistance: min(s, line.length)))))
        }
        inputs.sort { $0.time < $1.time }
        let session = RideSession(plan: plan, planner: planner)
        var classes: [RoughnessClass?] = []
        for i in inputs {
            session.feed(i)
            // Past the motion state's start-up, still walking.
            if i.time - start > 10 && i.time - start < walkSeconds - 1 { classes.append(session.state.roughnessClass) }
        }
        return (session.finish(), classes)
    }

    @Test(.enabled(if: RideFixtures.mapAvailable, "Maps/monaco.srmap is absent"))
    func walkedMetresAreNoEvidenceOfTheSurface() throws {
        let planner = try require(RideFixtures.planner)
        // Place du Casino towards Port Hercule: long enough for 78 m walked and 240 m rolled.
        let plan = try planner.plan(from: Coordinate(lat: 43.73946, lon: 7.42790), to: Coordinate(lat: 43.73453, lon: 7.42057), mode: .smoothest)
        #expect(plan.distance > Self.walkSpeed * Self.walkSeconds + Self.rollSpeed * Self.rollSeconds)
        let (summary, walkingClasses) = Self.replay(plan, planner: planner)

        // While walking the HUD has no measured class (it falls back to the plan's).
        #expect(!walkingClasses.isEmpty)
        #expect(walkingClasses.allSatisfy { $0 == nil }, "walking showed a measured class: \(Set(walkingClasses.compactMap { $0?.name }))")
        // Every edge figure learned comes from the rolled (class D) part: none reads butter.
        let figures = summary.edges.flatMap(\.passRMS)
        #expect(!figures.isEmpty)
        let smooth = figures.filter { RoughnessClass(rms: $0) == .butter }
        print("walked then rolled: \(summary.edges.count) edges measured, pass RMS \(figures.map { String(format: "%.3f", $0) }), robust \(summary.robustRMS.map { String(format: "%.3f", $0) } ?? "-") g")
        #expect(smooth.isEmpty, "walked edges learned as butter: \(smooth)")
        // The ride's robust roughness is the rolled surface's, not diluted by the walk.
        let robust = try #require(summary.robustRMS)
        #expect(RoughnessClass(rms: robust) >= .meh, "robust \(robust) g")
    }
}
