import FoundationEssentials
import Glibc

/// When a plan must say it is a detour (issue 26, item 4).
///
/// | constant       | value | why                                                                          |
/// |----------------|-------|------------------------------------------------------------------------------|
/// | `walkRatio`    | 2×    | twice the walker's line is more than any surface or grade preference explains |
/// | `extraClimbM`  | 150 m | a hill a rider would not choose unasked (≈ 10 min of pushing uphill)           |
/// | `directRatio`  | 2×    | the same test against the direct line when that line may not be used at all    |
public enum DetourRules {
    /// A route longer than this many times the shortest legal walking line is a detour.
    public static let walkRatio = 2.0
    /// A route climbing at least this many metres more than the shortest legal walk is a detour.
    public static let extraClimbM = 150.0
    /// A route longer than this many times the direct line (shortest over any way), when the
    /// direct line is not legal, is a detour too: the walk then is the detour itself.
    public static let directRatio = 2.0
    /// An offered walk or direct line must differ from the route by at least this share of its
    /// length (the alternatives' own rule, `Planner.alternativeMinDifference`).
    public static let offerMinDifference = 0.2
}

/// Why the direct line is not skateable, in a fixed order (the first ones are the hard reasons).
public enum DetourReason: Int, Sendable, CaseIterable, Comparable {
    case roadTunnel, footNo, noAccess, motorway, trunk, construction, footUseSidepath, unpaved, cobbles, stairs, roadWithoutSidewalk, rougherOrBusier

    /// The words in `detour.why`.
    public var name: String {
        switch self {
        case .roadTunnel: return "road tunnel"
        case .footNo: return "foot=no"
        case .noAccess: return "no public access"
        case .motorway: return "motorway"
        case .trunk: return "trunk road"
        case .construction: return "under construction"
        case .footUseSidepath: return "foot=use_sidepath"
        case .unpaved: return "unpaved"
        case .cobbles: return "sett or cobblestone"
        case .stairs: return "stairs"
        case .roadWithoutSidewalk: return "road without a sidewalk"
        case .rougherOrBusier: return "rougher, steeper or busier ways"
        }
    }

    /// The reason a forbidden (or penalised arterial) way gives, nil for the others.
    public init?(access: AccessReason) {
        switch access {
        case .roadTunnel: self = .roadTunnel
        case .footNo: self = .footNo
        case .accessNo: self = .noAccess
        case .motorway: self = .motorway
        case .trunk: self = .trunk
        case .construction: self = .construction
        case .footUseSidepath: self = .footUseSidepath
        default:
            if access.isArterial { self = .roadWithoutSidewalk } else { return nil }
        }
    }

    /// The reason a way's surface gives (unpaved families, sett and cobblestone), nil otherwise.
    public init?(surface: Surface) {
        switch surface {
        case .compacted, .fineGravel, .gravel, .unpaved, .ground, .dirt, .grass, .sand: self = .unpaved
        case .sett, .cobblestone: self = .cobbles
        default: return nil
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// The lines every plan compares itself with: the shortest legal walking line (stairs, unpaved
/// ways and lifts allowed, forbidden ways not), the direct line (shortest over any way) and the
/// crow-flies distance between the snapped ends.
public struct WalkReference: Sendable, Equatable {
    /// Metres of the shortest legal walking line; nil when no legal line joins the ends.
    public var shortestWalkM: Double?
    /// Metres climbed along it.
    public var walkClimbM: Double
    /// Metres of the shortest line over any way, and whether it keeps to legal ways.
    public var directM: Double?
    public var directLegal: Bool
    /// Metres as the crow flies between the snapped ends.
    public var crowFliesM: Double

    public init(shortestWalkM: Double?, walkClimbM: Double, directM: Double?, directLegal: Bool, crowFliesM: Double) {
        self.shortestWalkM = shortestWalkM; self.walkClimbM = walkClimbM; self.directM = directM
        self.directLegal = directLegal; self.crowFliesM = crowFliesM
    }
}

/// A plan that is a detour says so: how much longer and higher than the walker's line, and why
/// the direct line is not skateable.
public struct Detour: Sendable, Equatable {
    /// Route length ÷ shortest legal walking line.
    public var ratio: Double
    public var shortestWalkM: Double
    /// Route length ÷ the direct line (any way).
    public var directRatio: Double
    /// Metres the route climbs beyond the walk's climb (may be negative).
    public var extraClimbM: Double
    public var why: [DetourReason]

    public init(ratio: Double, shortestWalkM: Double, directRatio: Double, extraClimbM: Double, why: [DetourReason]) {
        self.ratio = ratio; self.shortestWalkM = shortestWalkM; self.directRatio = directRatio
        self.extraClimbM = extraClimbM; self.why = why
    }

    /// The detour verdict for a route of `distance` metres climbing `climb` metres, or nil when
    /// the route is no detour by `DetourRules`.
    public static func judge(distance: Double, climb: Double, reference r: WalkReference, why: [DetourReason]) -> Detour? {
        guard let walk = r.shortestWalkM, walk > 0 else { return nil }
        let ratio = distance / walk, extra = climb - r.walkClimbM
        let direct = r.directM.map { $0 > 0 ? distance / $0 : 1 } ?? ratio
        let byDirect = !r.directLegal && direct > DetourRules.directRatio
        guard ratio > DetourRules.walkRatio || extra >= DetourRules.extraClimbM || byDirect else { return nil }
        return Detour(ratio: ratio, shortestWalkM: walk, directRatio: direct, extraClimbM: extra,
                      why: why.isEmpty ? [.rougherOrBusier] : why)
    }
}
