import FoundationEssentials
import Glibc

/// How far a skater may use a way.
public enum AccessClass: UInt8, Sendable, CaseIterable, Comparable {
    /// Plainly allowed (and the preferred ways are rewarded elsewhere: bike lanes, plazas…).
    case ok = 0
    /// Allowed, but costed higher: busy roads without a pavement, wheels-unwelcome paths.
    case penalised = 1
    /// Not allowed: used only when no other line joins the two ends, and then said plainly.
    case forbidden = 2

    public var name: String {
        switch self {
        case .ok: return "ok"
        case .penalised: return "penalised"
        case .forbidden: return "forbidden"
        }
    }

    public static func < (a: AccessClass, b: AccessClass) -> Bool { a.rawValue < b.rawValue }
}

/// Why a way is penalised or forbidden (stored per edge in `EdgeFlags` bits 25–29).
public enum AccessReason: UInt8, Sendable, CaseIterable {
    case none = 0
    // Penalised.
    case primaryNoSidewalk = 1, primaryNoSidewalkFast, secondaryNoSidewalk, secondaryNoSidewalkFast,
         tertiaryNoSidewalk, tertiaryNoSidewalkFast, sidewalkSeparate, wheelsUnwelcome, footNoButSidewalk,
         fastRoadWithSidewalk
    // Forbidden.
    case motorway = 16, trunk, accessNo, footNo, roadTunnel, construction, footUseSidepath

    /// One line for the rider and the docs.
    public var explanation: String {
        switch self {
        case .none: return "allowed"
        case .primaryNoSidewalk: return "primary road without a sidewalk"
        case .primaryNoSidewalkFast: return "fast primary road (over 50 km/h) without a sidewalk"
        case .secondaryNoSidewalk: return "secondary road without a sidewalk"
        case .secondaryNoSidewalkFast: return "fast secondary road (over 50 km/h) without a sidewalk"
        case .tertiaryNoSidewalk: return "tertiary road without a sidewalk"
        case .tertiaryNoSidewalkFast: return "fast tertiary road (over 50 km/h) without a sidewalk"
        case .sidewalkSeparate: return "road whose sidewalk is mapped separately"
        case .wheelsUnwelcome: return "bicycle=no|dismount: wheels unwelcome"
        case .footNoButSidewalk: return "foot=no but a sidewalk is tagged (conflicting tags)"
        case .fastRoadWithSidewalk: return "motorway or trunk road, on its tagged sidewalk"
        case .motorway: return "motorway"
        case .trunk: return "trunk road without a sidewalk"
        case .accessNo: return "no public access (access=no|private)"
        case .footNo: return "no pedestrians (foot=no)"
        case .roadTunnel: return "road tunnel without a sidewalk"
        case .construction: return "under construction"
        case .footUseSidepath: return "pedestrians must use the separate path (foot=use_sidepath)"
        }
    }

    /// The class this reason implies.
    public var accessClass: AccessClass {
        switch rawValue {
        case 0: return .ok
        case 1..<16: return .penalised
        default: return .forbidden
        }
    }

    /// Penalised reasons of busy roads ("penalised arterials" in the bench figures).
    public var isArterial: Bool {
        switch self {
        case .primaryNoSidewalk, .primaryNoSidewalkFast, .secondaryNoSidewalk, .secondaryNoSidewalkFast,
             .tertiaryNoSidewalk, .tertiaryNoSidewalkFast, .fastRoadWithSidewalk: return true
        default: return false
        }
    }
}

/// An access verdict: the class and its reason.
public struct AccessDecision: Sendable, Equatable {
    public var accessClass: AccessClass
    public var reason: AccessReason
    public init(_ reason: AccessReason) { self.accessClass = reason.accessClass; self.reason = reason }
    public static let ok = AccessDecision(.none)
}

/// A skateboard's access model: the one table that decides, from a way's OSM tags, whether a
/// skater may ride it (ok), should avoid it (penalised) or may not use it (forbidden). The
/// importer stores the verdict per edge (`EdgeFlags` bits 23–29); the costing
/// (`SkateCosting`) and the plan's per-step legality (`PlanBuilder`) both read it back from
/// there through `decision(of:)` and `costFactor`, so there is no second copy of the rules.
///
/// Basis: like French practice, Monaco treats a skater on a board as a pedestrian, so where
/// people may walk a skater may roll, and where they may not, neither may a board.
///
/// | tags (first match wins)                                                    | class     | reason |
/// |----------------------------------------------------------------------------|-----------|--------|
/// | `highway=construction`                                                      | forbidden | a building site |
/// | `foot=use_sidepath`                                                         | forbidden | the law sends pedestrians to the separate path |
/// | `highway=motorway[_link]` without sidewalk or foot access                   | forbidden | motorways ban pedestrians |
/// | `highway=trunk[_link]` without sidewalk or foot access                      | forbidden | expressway-like, no room to walk |
/// | `highway=motorway|trunk[_link]` with a sidewalk or `foot=yes|designated|permissive` | penalised | fast road, on its pavement |
/// | `access=no|private` without `foot=yes|designated|permissive` or a sidewalk  | forbidden | not public |
/// | `foot=no|private` without a sidewalk                                        | forbidden | no pedestrians |
/// | `foot=no` with a tagged sidewalk                                            | penalised | conflicting tags: the pavement decides |
/// | `tunnel=yes|building_passage` on a motor road, no sidewalk, no foot access  | forbidden | road tunnels have no room, fumes, no escape |
/// | `sidewalk=separate` (or `sidewalk:*=separate`) on a motor road              | penalised | the mapped sidewalk is the line to ride |
/// | `highway=primary|secondary|tertiary[_link]` without sidewalk or bike lane   | penalised | by class and `maxspeed` (> 50 km/h is "fast") |
/// | `bicycle=no|dismount`                                                       | penalised | wheels unwelcome, walkers allowed |
/// | `highway=pedestrian|footway|path|living_street|residential|service|…`       | ok        | pedestrians' ways and calm streets |
/// | `highway=cycleway`                                                          | ok        | skaters are tolerated on cycle tracks and they are the smoothest asphalt (rewarded by `bikeLaneReward`) |
/// | `sidewalk=both|left|right|yes` (and `sidewalk:both|left|right=yes`)        | ok        | a pavement makes a larger road acceptable |
///
/// Multi-valued tags (`access=yes;no`) count by their first value; unknown values fall back to
/// the highway's default (ok, or the arterial penalty).
public enum AccessModel {
    /// Values of `foot` that open a way to people on foot even where `access` closes it.
    public static let footOpen: Set<String> = ["yes", "designated", "permissive"]
    /// Values of `access` / `foot` that close a way.
    public static let closed: Set<String> = ["no", "private"]
    /// Sidewalk values that put a pavement on the way itself.
    public static let sidewalkPresent: Set<String> = ["both", "left", "right", "yes"]
    /// Speed (km/h) above which a road without a sidewalk counts as "fast": 50 is the urban limit.
    public static let fastRoadKmh = 50.0

    /// The first value of a possibly `;`-separated tag value, trimmed.
    static func first(_ v: String?) -> String? {
        guard let v else { return nil }
        let f = v.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? v
        return f.trimmingWhitespace()
    }

    /// Parses `maxspeed` into km/h (`"50"`, `"30 mph"`, `"FR:urban"`); nil when unknown.
    static func maxspeedKmh(_ raw: String?) -> Double? {
        guard let s = first(raw) else { return nil }
        if s.hasSuffix("mph"), let v = Double(s.dropLast(3).trimmingWhitespace()) { return v * 1.609 }
        if let v = Double(s) { return v }
        if s.hasSuffix(":urban") { return 50 }
        if s.hasSuffix(":rural") { return 80 }
        if s.hasSuffix(":motorway") { return 130 }
        return nil
    }

    /// The verdict for a way from its `highway` class and its tags (`tag(key)` → value).
    public static func classify(highway hw: HighwayClass, bikeLane: Bool, tag: (String) -> String?) -> AccessDecision {
        let foot = first(tag("foot")), access = first(tag("access"))
        let footIsOpen = foot.map { footOpen.contains($0) } ?? false
        var sidewalk = false, separate = false
        for key in ["sidewalk", "sidewalk:both", "sidewalk:left", "sidewalk:right"] {
            guard let v = first(tag(key)) else { continue }
            if sidewalkPresent.contains(v) { sidewalk = true }
            if v == "separate" { separate = true }
        }
        if hw == .construction { return AccessDecision(.construction) }
        if foot == "use_sidepath" { return AccessDecision(.footUseSidepath) }
        if hw == .motorway || hw == .trunk {
            if sidewalk || footIsOpen { return AccessDecision(.fastRoadWithSidewalk) }
            return AccessDecision(hw == .motorway ? .motorway : .trunk)
        }
        if let a = access, closed.contains(a), !footIsOpen, !sidewalk { return AccessDecision(.accessNo) }
        if let f = foot, closed.contains(f) {
            return AccessDecision(sidewalk ? .footNoButSidewalk : .footNo)
        }
        if let t = first(tag("tunnel")), t == "yes" || t == "building_passage", hw.carriesMotorTraffic, !sidewalk, !footIsOpen {
            return AccessDecision(.roadTunnel)
        }
        if hw.carriesMotorTraffic && separate && !sidewalk { return AccessDecision(.sidewalkSeparate) }
        if !sidewalk && !bikeLane && !footIsOpen {
            let fast = (maxspeedKmh(tag("maxspeed")) ?? 0) > fastRoadKmh
            switch hw {
            case .primary: return AccessDecision(fast ? .primaryNoSidewalkFast : .primaryNoSidewalk)
            case .secondary: return AccessDecision(fast ? .secondaryNoSidewalkFast : .secondaryNoSidewalk)
            case .tertiary: return AccessDecision(fast ? .tertiaryNoSidewalkFast : .tertiaryNoSidewalk)
            default: break
            }
        }
        if let b = first(tag("bicycle")), b == "no" || b == "dismount" { return AccessDecision(.wheelsUnwelcome) }
        return .ok
    }

    /// The stored flag bits of a decision.
    public static func flags(_ d: AccessDecision) -> EdgeFlags {
        EdgeFlags(rawValue: UInt32(d.accessClass.rawValue) << EdgeFlags.accessClassShift | UInt32(d.reason.rawValue) << EdgeFlags.accessReasonShift)
    }

    /// The decision stored in an edge's flags (an unknown stored reason reads as ok).
    @inlinable public static func decision(of f: EdgeFlags) -> AccessDecision {
        let r = UInt8(truncatingIfNeeded: (f.rawValue >> EdgeFlags.accessReasonShift) & 0b11111)
        return AccessDecision(AccessReason(rawValue: r) ?? .none)
    }

    // MARK: Costs

    /// Effort seconds added per forbidden edge: more than any legal detour in a city costs
    /// (a whole-Monaco crossing is ≈ 2 000 effort seconds), so a forbidden way is taken only
    /// when no legal line joins the ends.
    public static let forbiddenEdgeSeconds = 20_000.0
    /// Effort seconds per forbidden metre on top: among forbidden lines, the shortest breach.
    public static let forbiddenSecondsPerMetre = 100.0
    /// Share of the mode's arterial surcharge (`ModeWeights.arterial − 1`) per penalised class:
    /// primaries carry the most and fastest traffic, tertiaries the least.
    public static let primaryShare = 1.5, secondaryShare = 1.0, tertiaryShare = 0.5
    /// Extra share for a road signed over 50 km/h.
    public static let fastShare = 0.5
    /// Multiplier on a road whose sidewalk is mapped as its own way: the same length on the
    /// sidewalk always wins, an extra crossing or two still may.
    public static let separateSidewalkFactor = 2.0
    /// Multiplier for `foot=no` on a road with a tagged sidewalk (contradictory tags: usable,
    /// not welcome).
    public static let conflictingTagsFactor = 2.0

    /// The cost multiplier of a penalised way for a mode (1 for ok, and for forbidden ways,
    /// whose surcharge is additive: `forbiddenEdgeSeconds`).
    public static func costFactor(_ r: AccessReason, weights w: ModeWeights) -> Double {
        let arterial = w.arterial - 1
        switch r {
        case .primaryNoSidewalk: return 1 + arterial * primaryShare
        case .primaryNoSidewalkFast, .fastRoadWithSidewalk: return 1 + arterial * (primaryShare + fastShare)
        case .secondaryNoSidewalk: return 1 + arterial * secondaryShare
        case .secondaryNoSidewalkFast: return 1 + arterial * (secondaryShare + fastShare)
        case .tertiaryNoSidewalk: return 1 + arterial * tertiaryShare
        case .tertiaryNoSidewalkFast: return 1 + arterial * (tertiaryShare + fastShare)
        case .sidewalkSeparate: return separateSidewalkFactor
        case .wheelsUnwelcome: return 1 + (w.illegal - 1) / 3
        case .footNoButSidewalk: return conflictingTagsFactor
        default: return 1
        }
    }

    /// The additive surcharge (effort seconds) of a forbidden edge of `length` metres; 0 otherwise.
    public static func forbiddenSurcharge(_ d: AccessDecision, length: Double) -> Double {
        d.accessClass == .forbidden ? forbiddenEdgeSeconds + forbiddenSecondsPerMetre * length : 0
    }

    /// Legality score of a class (1 plainly allowed … 0 forbidden), for `StepContext.legalityScore`.
    public static func score(_ c: AccessClass) -> Double {
        switch c {
        case .ok: return 1
        case .penalised: return 0.5
        case .forbidden: return 0
        }
    }
}
