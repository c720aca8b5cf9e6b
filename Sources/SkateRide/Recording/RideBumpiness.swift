import FoundationEssentials
import SkateCore

/// The ride's bumpiness in its summary (issue 28 must-have 5), beside the robust roughness: how
/// much the rider was shaken, impacts and body motion included, over the rolling that was neither
/// pushing nor carving (`BumpinessMeter`). A degraded motion stream (gaps, stuck axes, no gravity,
/// …) gives no figure, only why.
public struct RideBumpiness: Sendable, Hashable, Codable {
    /// RMS (g) of the vertical acceleration in every band the rate allows over the counted
    /// samples; nil when the stream is degraded or nothing was counted.
    public var rms: Double?
    /// Seconds of motion counted (rolling, cruising windows, filters settled).
    public var countedSeconds: Double
    /// Seconds of rolling left out as pushing or carving.
    public var bodyMotionSeconds: Double
    /// Why there is no figure: the motion stream's problems (`ImpactLearning.degradingCodes`, or a
    /// stuck stream, or a rate the engine cannot read); nil when measured.
    public var degraded: String?

    public init(rms: Double?, countedSeconds: Double, bodyMotionSeconds: Double, degraded: String?) {
        self.rms = rms; self.countedSeconds = countedSeconds; self.bodyMotionSeconds = bodyMotionSeconds; self.degraded = degraded
    }

    enum CodingKeys: String, CodingKey {
        case rms = "rms_g"
        case countedSeconds = "counted_s"
        case bodyMotionSeconds = "pushing_or_carving_s"
        case degraded
    }

    /// As written: RMS to 1e-4 g, seconds to 0.1 s.
    func rounded() -> RideBumpiness {
        RideBumpiness(rms: rms.map { RideSummary.round($0, 4) }, countedSeconds: RideSummary.round(countedSeconds, 1),
                      bodyMotionSeconds: RideSummary.round(bodyMotionSeconds, 1), degraded: degraded)
    }
}

/// The median of a ride's clean 10 Hz window RMS values (g) in constant memory: a histogram of
/// `binWidth` bins up to `maxRMS` (beyond it, the last bin), read at the end. `robustRMS` on a
/// whole ride's windows, to within half a bin.
///
/// | constant | value | why |
/// |---|---|---|
/// | `binWidth` | 0.1 mg | the summary prints 0.1 mg; the class steps are 50–80 mg |
/// | `maxRMS` | 2 g | crusty starts at 0.2 g; a window over 2 g is a fall, not a surface |
public struct RideRoughnessMedian: Sendable {
    public static let binWidth: Double = 0.0001
    public static let maxRMS: Double = 2
    private var bins: [UInt32] = []
    /// Windows added.
    public private(set) var count = 0

    public init() {}

    /// Adds one window's RMS (g); non-finite or negative values are skipped.
    public mutating func add(_ rms: Double) {
        guard rms.isFinite, rms >= 0 else { return }
        if bins.isEmpty { bins = [UInt32](repeating: 0, count: Int((Self.maxRMS / Self.binWidth).rounded()) + 1) }
        bins[min(bins.count - 1, Int(rms / Self.binWidth))] += 1
        count += 1
    }

    /// The median (g, the middle of its bin), nil with fewer than `RoughnessEngine.robustMinimumWindows` windows.
    public var median: Double? {
        guard count >= RoughnessEngine.robustMinimumWindows else { return nil }
        // The value sorted[count / 2] would give (the upper middle for an even count).
        let rank = count / 2 + 1
        var seen = 0
        for (i, n) in bins.enumerated() {
            seen += Int(n)
            if seen >= rank { return (Double(i) + 0.5) * Self.binWidth }
        }
        return nil
    }
}
