import FoundationEssentials
import Glibc

/// Everything a ride session changes on every motion sample, in one value held in one stored
/// property (`RideSession.motionPath`): one exclusive access per sample instead of one per field.
/// On a class, every access to a stored property the optimiser cannot prove exclusive is checked
/// at run time (`swift_beginAccess`); five such checks a sample were a tenth of a headless replay.
struct RideMotionPath {
    /// What one sample changed that the session must act on (events, view state, windows).
    struct Step {
        /// The stream's stuck state (`MotionQuality.isStuckNow`) changed to this on this sample.
        var degradedNow: Bool?
        /// Why the roughness engine could not start, on the sample that filled the rate probe.
        var engineError: String?
        /// The probe's samples pushed at once when the engine started: the windows they closed.
        var flushed: [RoughnessWindow]?
        /// The window this sample closed.
        var window: RoughnessWindow?
    }

    /// Motion samples fed.
    var count = 0
    var quality = MotionQuality()
    /// Holes in the stream (intervals over `MotionQuality.gapFactor` sample intervals).
    var gaps = 0
    /// Time (s, input time base) of the last sample.
    var lastT: Double?
    /// True while the last full quality block read stuck: its windows are no evidence.
    var degraded = false
    /// Samples buffered to estimate the rate before the roughness engine starts.
    var probe: [MotionSample] = []
    var roughness: RoughnessEngine?
    /// Bumpiness while rolling, started with the roughness engine at its rate.
    var bumpiness: BumpinessMeter?
    /// The rate could not be estimated (or is too low): no roughness for this ride.
    var disabled = false

    /// Feeds one sample; `rolling` says whether the motion state reads rolling (bumpiness counts
    /// only then).
    mutating func push(_ m: MotionSample, rolling: Bool) -> Step {
        var step = Step()
        count += 1
        quality.push(m)
        if let last = lastT, let r = roughness?.sampleRate, m.t - last > max(MotionQuality.minimumGap, MotionQuality.gapFactor / r) {
            gaps += 1
        }
        lastT = m.t
        if quality.isStuckNow != degraded {
            degraded = quality.isStuckNow
            step.degradedNow = degraded
        }
        guard !disabled else { return step }
        if roughness == nil {
            probe.append(m)
            guard probe.count >= RideSession.rateProbeSamples else { return step }
            do {
                let engine = try RoughnessEngine(sampleRate: RoughnessEngine.estimateRate(probe))
                roughness = engine
                bumpiness = BumpinessMeter(sampleRate: engine.sampleRate)
            } catch {
                disabled = true
                step.engineError = "\(error)"
                probe = []
                return step
            }
            let buffered = probe
            probe = []
            var windows: [RoughnessWindow] = []
            for s in buffered { if let w = engines(s, rolling: rolling) { windows.append(w) } }
            step.flushed = windows
            return step
        }
        step.window = engines(m, rolling: rolling)
        return step
    }

    @inline(__always) private mutating func engines(_ m: MotionSample, rolling: Bool) -> RoughnessWindow? {
        bumpiness?.push(m, rolling: rolling)
        return roughness!.push(m)
    }
}
