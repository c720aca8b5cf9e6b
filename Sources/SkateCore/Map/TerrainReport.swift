import FoundationEssentials
import Glibc

/// What conditioning did to one import, for `map info` and the closing figures.
public struct TerrainReport: Sendable, Equatable, Codable {
    /// Vertical noise assumed for the DEM, metres (0 = exact or no DEM).
    public var demNoiseM: Double = 0
    /// Edges whose interior went through the RDP filter; streets read flat; edges whose interior
    /// was a cliff artefact; edges held to a numeric incline tag; edges whose sign an
    /// `incline=up|down` tag fixed.
    public var edgesFiltered = 0, streetsFlat = 0, edgesCliff = 0, edgesInclineTag = 0, edgesInclineSign = 0
    /// Edges spanned end to end (bridges, tunnels, connectors).
    public var edgesSpanned = 0
    /// Edges whose interior spike past ±30 % was replaced by the line between their nodes.
    public var edgesSpikeRemoved = 0
    /// Edges (not stairs) whose node-to-node grade is past ±30 %: the router clamps these.
    public var edgesClamped = 0
    /// Stairs edges steeper than ±30 % (expected: stairs are steep, and they are walked).
    public var stepsSteeperThanClamp = 0
    public init() {}

    /// The counts in their binary-record order.
    var counts: [Int] {
        [edgesFiltered, streetsFlat, edgesCliff, edgesInclineTag, edgesInclineSign, edgesSpanned, edgesSpikeRemoved,
         edgesClamped, stepsSteeperThanClamp, 0 /* reserved */]
    }
    static let countFields = 10
    init(demNoiseM: Double, counts c: [Int]) {
        self.demNoiseM = demNoiseM
        (edgesFiltered, streetsFlat, edgesCliff, edgesInclineTag, edgesInclineSign) = (c[0], c[1], c[2], c[3], c[4])
        (edgesSpanned, edgesSpikeRemoved, edgesClamped, stepsSteeperThanClamp) = (c[5], c[6], c[7], c[8])
    }
}
