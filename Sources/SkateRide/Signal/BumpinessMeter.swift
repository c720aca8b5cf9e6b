import FoundationEssentials
import Glibc

/// Bumpiness measured while the ride plays (issue 28 must-have 5): `Bumpiness`'s figure, one
/// sample at a time in constant memory, counted only where the rider is rolling and neither pushing
/// nor carving. The ride session feeds it every motion sample with whether its motion state
/// (`MotionStateMachine`, from speed and vibration) reads rolling; `BodyMotionGate.Stream` decides
/// each 1 s window's activity, and a window's samples count only when it is cruising.
///
/// What is measured: the vertical acceleration (g) on the mean gravity direction so far, high-passed
/// at `Bumpiness.lowEdgeHz` and nothing else, so every band the rate allows (up to its Nyquist
/// frequency), impacts and body motion included; its RMS over the counted samples. It differs from
/// the offline `Bumpiness.measureGated` only in the gravity direction, which is the mean up to the
/// current window rather than over the whole recording.
///
/// | constant | value | why |
/// |---|---|---|
/// | `Bumpiness.lowEdgeHz` | 0.5 Hz | below it the board's tilt and the rider's lean move gravity, not the road |
/// | `Bumpiness.settleSeconds` | 1 s | left out after every (re)start while the high-pass settles |
/// | `maxGap` | 0.5 s | a longer hole (or time going back) restarts the filters, as the roughness engine does |
///
/// Cost per sample: one projection and seven biquads (one for the band, six for the gate).
public struct BumpinessMeter: Sendable {
    /// A hole in the samples longer than this (s) restarts the filters (`RoughnessEngine.maxGap`).
    public static let maxGap: Double = RoughnessEngine.maxGap

    /// Hz.
    public let sampleRate: Double
    private var gate: BodyMotionGate.Stream
    private var highPass: Biquad
    // Sums of each axis since the first sample (g), for the mean gravity direction, and its unit
    // vector, refreshed at every window close.
    private var mx = 0.0, my = 0.0, mz = 0.0, gravityCount = 0
    private var ux = 0.0, uy = 0.0, uz = 1.0
    private var offset = 0.0
    private var started = false
    private var restartT = 0.0, lastT = 0.0
    // The open gate window: sum of squares and count of its counted (rolling, settled) samples.
    private var openSumSq = 0.0, openCount = 0
    // Totals over the closed windows.
    private var countedSumSq = 0.0
    /// Samples counted (rolling, in cruising windows, settled).
    public private(set) var countedSamples = 0
    /// Samples taken while rolling that fell in pushing-or-carving windows (left out).
    public private(set) var bodyMotionSamples = 0

    /// - Parameter sampleRate: input rate in Hz; above 2 × `BodyMotionGate.bodyHighHz` (the
    ///   ride session only builds one at a rate the roughness engine accepts, ≥ 40 Hz).
    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
        gate = BodyMotionGate.Stream(sampleRate: sampleRate)
        highPass = Biquad.highPass(cutoff: Bumpiness.lowEdgeHz, q: 0.5.squareRoot(), sampleRate: sampleRate)
    }

    /// Feeds one sample (g). `rolling`: whether the rider's motion state is rolling now (samples
    /// taken standing or walking never count). Non-finite samples are skipped.
    public mutating func push(_ s: MotionSample, rolling: Bool) {
        guard s.t.isFinite, s.ax.isFinite, s.ay.isFinite, s.az.isFinite else { return }
        if started, s.t - lastT > Self.maxGap || s.t < lastT { restart() }
        if !started {
            started = true
            restartT = s.t
            if gravityCount == 0 {
                // The first sample's direction until a window has passed.
                let m = (s.ax * s.ax + s.ay * s.ay + s.az * s.az).squareRoot()
                if m > 1e-9 { ux = s.ax / m; uy = s.ay / m; uz = s.az / m }
            }
            offset = s.ax * ux + s.ay * uy + s.az * uz
        }
        lastT = s.t
        if let w = gate.push(s) { close(w.activity) }
        mx += s.ax; my += s.ay; mz += s.az; gravityCount += 1
        let y = highPass.process(s.ax * ux + s.ay * uy + s.az * uz - offset)
        guard rolling, s.t - restartT >= Bumpiness.settleSeconds else { return }
        openSumSq += y * y
        openCount += 1
    }

    /// Ends the stream: the open window counts by what it holds so far.
    public mutating func finish() {
        if let a = gate.openActivity { close(a) }
        openSumSq = 0; openCount = 0
    }

    /// RMS (g) over the counted samples; nil without any.
    public var rms: Double? { countedSamples > 0 ? (countedSumSq / Double(countedSamples)).squareRoot() : nil }
    /// Seconds of samples counted.
    public var countedSeconds: Double { Double(countedSamples) / sampleRate }
    /// Seconds of rolling left out as pushing or carving.
    public var bodyMotionSeconds: Double { Double(bodyMotionSamples) / sampleRate }

    private mutating func close(_ activity: RideActivity) {
        if activity == .cruising {
            countedSumSq += openSumSq
            countedSamples += openCount
        } else {
            bodyMotionSamples += openCount
        }
        openSumSq = 0; openCount = 0
        // The direction turns a little toward the new mean: the offset moves with the mean's
        // projection, so the projected signal does not step at the window boundary.
        guard gravityCount > 0 else { return }
        let n = Double(gravityCount)
        let before = (mx * ux + my * uy + mz * uz) / n
        refreshDirection()
        offset += (mx * ux + my * uy + mz * uz) / n - before
    }

    private mutating func refreshDirection() {
        let m = (mx * mx + my * my + mz * mz).squareRoot()
        if m > 1e-9 { ux = mx / m; uy = my / m; uz = mz / m }
    }

    /// A hole or time going back: the filters and the gate start again (the open window is
    /// dropped, its samples never counted); the gravity sums and the totals are kept.
    private mutating func restart() {
        started = false
        gate = BodyMotionGate.Stream(sampleRate: sampleRate)
        highPass.reset()
        openSumSq = 0; openCount = 0
    }
}
