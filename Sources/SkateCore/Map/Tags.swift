/// OSM `highway=*` classes a skater's router distinguishes. Motorways, trunks (with their
/// `_link`s) and ways under construction are imported so that `AccessModel` can forbid them by
/// name (and a route that has no other line can still say where it breaks the rules);
/// `elevator` is the class of lift connector edges (see `EdgeFlags.connector`).
public enum HighwayClass: UInt8, Sendable, CaseIterable, Codable {
    case other = 0, primary, secondary, tertiary, unclassified, residential, livingStreet,
         service, pedestrian, track, footway, path, cycleway, steps, bridleway, road, corridor, platform,
         motorway, trunk, construction, elevator

    /// Parses an OSM `highway` value; nil for values that are not ways anyone may use
    /// (proposed, abandoned, raceway, bus_guideway…).
    public init?(osm value: String) {
        switch value {
        case "primary", "primary_link": self = .primary
        case "secondary", "secondary_link": self = .secondary
        case "tertiary", "tertiary_link": self = .tertiary
        case "unclassified": self = .unclassified
        case "residential": self = .residential
        case "living_street": self = .livingStreet
        case "service": self = .service
        case "pedestrian": self = .pedestrian
        case "track": self = .track
        case "footway": self = .footway
        case "path": self = .path
        case "cycleway": self = .cycleway
        case "steps": self = .steps
        case "bridleway": self = .bridleway
        case "road": self = .road
        case "corridor": self = .corridor
        case "platform": self = .platform
        case "motorway", "motorway_link": self = .motorway
        case "trunk", "trunk_link": self = .trunk
        case "construction": self = .construction
        case "elevator": self = .elevator
        case "proposed", "abandoned", "disused", "raceway", "bus_guideway", "escape", "razed", "no", "busway", "via_ferrata":
            return nil
        default: self = .other
        }
    }

    /// The OSM spelling, for display and exports.
    public var osmValue: String {
        switch self {
        case .other: return "other"
        case .primary: return "primary"
        case .secondary: return "secondary"
        case .tertiary: return "tertiary"
        case .unclassified: return "unclassified"
        case .residential: return "residential"
        case .livingStreet: return "living_street"
        case .service: return "service"
        case .pedestrian: return "pedestrian"
        case .track: return "track"
        case .footway: return "footway"
        case .path: return "path"
        case .cycleway: return "cycleway"
        case .steps: return "steps"
        case .bridleway: return "bridleway"
        case .road: return "road"
        case .corridor: return "corridor"
        case .platform: return "platform"
        case .motorway: return "motorway"
        case .trunk: return "trunk"
        case .construction: return "construction"
        case .elevator: return "elevator"
        }
    }

    /// Arterials carry fast motor traffic: legal-but-unpleasant for a skater.
    public var isArterial: Bool { self == .primary || self == .secondary || self == .trunk || self == .motorway }
    /// Roads a pedestrian crossing of which counts as crossing "a major road".
    public var isMajorRoad: Bool { self == .primary || self == .secondary || self == .tertiary || self == .trunk || self == .motorway }
    /// Roads built for motor traffic (a tunnel on one of them is a road tunnel).
    public var carriesMotorTraffic: Bool {
        switch self {
        case .motorway, .trunk, .primary, .secondary, .tertiary, .unclassified, .residential, .livingStreet, .service, .road: return true
        default: return false
        }
    }
}

/// OSM `surface=*`, folded to the values that change how a small hard wheel rolls.
public enum Surface: UInt8, Sendable, CaseIterable, Codable {
    case unknown = 0, asphalt, concrete, concretePlates, paved, pavingStones, sett, cobblestone,
         metal, wood, compacted, fineGravel, gravel, unpaved, ground, dirt, grass, sand, rubber, tartan,
         bricks, other, woodchips

    public init(osm value: String) {
        switch value {
        case "asphalt", "chipseal": self = .asphalt
        case "concrete", "concrete:lanes": self = .concrete
        case "concrete:plates": self = .concretePlates
        case "paved": self = .paved
        case "paving_stones", "paving_stones:lanes", "interlock": self = .pavingStones
        case "sett": self = .sett
        case "cobblestone", "unhewn_cobblestone": self = .cobblestone
        case "cobblestone:flattened": self = .sett
        case "metal", "metal_grid": self = .metal
        case "wood": self = .wood
        case "woodchips", "bark_mulch": self = .woodchips
        case "compacted": self = .compacted
        case "fine_gravel": self = .fineGravel
        case "gravel", "pebblestone", "rock": self = .gravel
        case "unpaved", "clay": self = .unpaved
        case "ground", "earth", "mud": self = .ground
        case "dirt": self = .dirt
        case "grass", "grass_paver", "artificial_turf": self = .grass
        case "sand": self = .sand
        case "rubber": self = .rubber
        case "tartan", "acrylic": self = .tartan
        case "brick", "bricks": self = .bricks
        default: self = .other
        }
    }

    public var name: String {
        switch self {
        case .unknown: return "unknown"
        case .asphalt: return "asphalt"
        case .concrete: return "concrete"
        case .concretePlates: return "concrete_plates"
        case .paved: return "paved"
        case .pavingStones: return "paving_stones"
        case .sett: return "sett"
        case .cobblestone: return "cobblestone"
        case .metal: return "metal"
        case .wood: return "wood"
        case .compacted: return "compacted"
        case .fineGravel: return "fine_gravel"
        case .gravel: return "gravel"
        case .unpaved: return "unpaved"
        case .ground: return "ground"
        case .dirt: return "dirt"
        case .grass: return "grass"
        case .sand: return "sand"
        case .rubber: return "rubber"
        case .tartan: return "tartan"
        case .bricks: return "bricks"
        case .other: return "other"
        case .woodchips: return "woodchips"
        }
    }
}

/// OSM `smoothness=*` (the key written for exactly this question: what wheels can use it).
public enum Smoothness: UInt8, Sendable, CaseIterable, Codable {
    case unknown = 0, excellent, good, intermediate, bad, veryBad, horrible, veryHorrible, impassable

    public init(osm value: String) {
        switch value {
        case "excellent": self = .excellent
        case "good": self = .good
        case "intermediate": self = .intermediate
        case "bad": self = .bad
        case "very_bad": self = .veryBad
        case "horrible": self = .horrible
        case "very_horrible": self = .veryHorrible
        case "impassable": self = .impassable
        default: self = .unknown
        }
    }

    public var name: String {
        switch self {
        case .unknown: return "unknown"
        case .excellent: return "excellent"
        case .good: return "good"
        case .intermediate: return "intermediate"
        case .bad: return "bad"
        case .veryBad: return "very_bad"
        case .horrible: return "horrible"
        case .veryHorrible: return "very_horrible"
        case .impassable: return "impassable"
        }
    }
}

/// Bit flags carried by every edge (one OSM way piece between two graph nodes).
public struct EdgeFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `oneway=yes|1|true` (or implied by a roundabout) for vehicles, forward direction only.
    public static let oneway = EdgeFlags(rawValue: 1 << 0)
    /// `oneway=-1`: one-way against the drawing direction.
    public static let onewayReverse = EdgeFlags(rawValue: 1 << 1)
    /// `lit=yes` (or 24/7, automatic…).
    public static let lit = EdgeFlags(rawValue: 1 << 2)
    /// `lit=no`. Neither lit nor unlit means unknown.
    public static let unlit = EdgeFlags(rawValue: 1 << 3)
    public static let bridge = EdgeFlags(rawValue: 1 << 4)
    public static let tunnel = EdgeFlags(rawValue: 1 << 5)
    /// A painted or separated bike lane / track along the way (`cycleway*=lane|track|…`), or a cycleway itself.
    public static let bikeLane = EdgeFlags(rawValue: 1 << 6)
    /// `bicycle=no` or `dismount`: wheels explicitly unwelcome.
    public static let bicycleNo = EdgeFlags(rawValue: 1 << 7)
    /// `foot=no`: pedestrians (and so skaters) not allowed.
    public static let footNo = EdgeFlags(rawValue: 1 << 8)
    /// `sidewalk=both|left|right|yes` (or separate): a pavement exists alongside.
    public static let sidewalk = EdgeFlags(rawValue: 1 << 9)
    /// `highway=steps` or `step_count`: not rideable, walk only.
    public static let steps = EdgeFlags(rawValue: 1 << 10)
    /// The way carries an `incline=*` tag (numeric or up/down).
    public static let inclineTagged = EdgeFlags(rawValue: 1 << 11)
    /// `incline=up` (climbs in the drawing direction) without a number.
    public static let inclineUp = EdgeFlags(rawValue: 1 << 12)
    /// `incline=down` without a number.
    public static let inclineDown = EdgeFlags(rawValue: 1 << 13)
    /// `bicycle=yes|designated` or `foot=designated`: explicitly welcome.
    public static let wheelsDesignated = EdgeFlags(rawValue: 1 << 14)
    /// The edge is part of a pedestrian area or plaza (`area=yes` pedestrian ways), a skate-friendly spot.
    public static let plaza = EdgeFlags(rawValue: 1 << 15)
    /// The edge's elevation came from a DEM (else unknown and grades are 0).
    public static let hasElevation = EdgeFlags(rawValue: 1 << 16)
    /// `access=destination|delivery|permissive` and similar: legal but not through.
    public static let accessLimited = EdgeFlags(rawValue: 1 << 17)
    /// `footway=sidewalk`: the way is itself a sidewalk.
    public static let isSidewalk = EdgeFlags(rawValue: 1 << 18)
    /// `footway=crossing` or `cycleway=crossing`: the way crosses a road.
    public static let isCrossing = EdgeFlags(rawValue: 1 << 19)
    /// `junction=roundabout`.
    public static let roundabout = EdgeFlags(rawValue: 1 << 20)
    /// A vertical connector: a public lift (`highway=elevator`, class `.elevator`, usually 0 m
    /// long) or an escalator / moving walkway (`conveying=*` on steps). No grade, a wait+ride
    /// time instead of a speed (`ConnectorTiming`); it does not tie the elevations of its ends.
    public static let connector = EdgeFlags(rawValue: 1 << 22)
    /// Bits 23–24: the `AccessClass` (0 ok, 1 penalised, 2 forbidden); bits 25–29: the
    /// `AccessReason`. Read them through `AccessModel.decision(of:)`.
    public static let accessClassShift: UInt32 = 23, accessReasonShift: UInt32 = 25
    public static let accessMask = EdgeFlags(rawValue: 0b11 << 23 | 0b11111 << 25)
    /// A connector with `opening_hours` tagged and not `24/7`: it may be closed (plan note).
    public static let limitedHours = EdgeFlags(rawValue: 1 << 30)
    /// Steps with a ramp (`ramp=yes`, `ramp:stroller|bicycle|wheelchair|luggage=yes`): the board rolls beside.
    public static let stepsRamp = EdgeFlags(rawValue: 1 << 31)
}

/// Bit flags of a graph node (an OSM node that ends or joins ways).
public struct NodeFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// `highway=crossing` or `crossing=*`: a place where the rider crosses a road.
    public static let crossing = NodeFlags(rawValue: 1 << 0)
    /// `highway=traffic_signals` or `crossing=traffic_signals`: a wait is likely.
    public static let trafficSignals = NodeFlags(rawValue: 1 << 1)
    /// `kerb=raised|rolled|yes`: a bump or a hop for small wheels.
    public static let kerbRaised = NodeFlags(rawValue: 1 << 2)
    /// `kerb=lowered|flush|no`: smooth transition.
    public static let kerbLowered = NodeFlags(rawValue: 1 << 3)
    /// `highway=stop|give_way`.
    public static let stopSign = NodeFlags(rawValue: 1 << 4)
    /// `barrier=*` that a rider must stop at (gate, bollard is passable and not flagged).
    public static let barrier = NodeFlags(rawValue: 1 << 5)
    /// The node joins an arterial or major road (a crossing of a busy street when walked over).
    public static let touchesMajorRoad = NodeFlags(rawValue: 1 << 6)
}

/// Kinds of searchable places and points of interest.
public enum PlaceKind: UInt8, Sendable, CaseIterable, Codable {
    case amenity = 0, shop, tourism, leisure, skatepark, square, pedestrianArea, place, street, other

    public var name: String {
        switch self {
        case .amenity: return "amenity"
        case .shop: return "shop"
        case .tourism: return "tourism"
        case .leisure: return "leisure"
        case .skatepark: return "skatepark"
        case .square: return "square"
        case .pedestrianArea: return "pedestrian_area"
        case .place: return "place"
        case .street: return "street"
        case .other: return "other"
        }
    }

    /// A spot worth passing through in `trickSpotCrawl`: skateparks, squares and plazas.
    public var isTrickSpot: Bool { self == .skatepark || self == .square || self == .pedestrianArea }
}

/// Kinds of areas where hazard reports are refused (children and patients first).
public enum ZoneKind: UInt8, Sendable, CaseIterable, Codable {
    case school = 0, hospital, kindergarten

    public var name: String {
        switch self {
        case .school: return "school"
        case .hospital: return "hospital"
        case .kindergarten: return "kindergarten"
        }
    }
}
