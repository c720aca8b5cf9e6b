import FoundationEssentials
import Glibc

/// Where measured roughness per map edge goes (the store implements it).
public protocol SegmentObservationSink {
    /// Records the robust RMS (g) measured over one pass of `edge`.
    /// - Parameters:
    ///   - edge: edge index in the ride's map.
    ///   - rms: robust (median, impacts left out) window RMS in g.
    ///   - samples: number of clean 10 Hz windows behind the figure.
    ///   - at: when the rider was there (ride time, never the wall clock).
    func record(edge: Int, rms: Double, samples: Int, at: Date)
}
