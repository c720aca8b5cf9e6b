import FoundationEssentials
import Glibc
import SkateCore

/// What the importer keeps of an OSM highway way: the class and the tags a skater's router uses.
struct WayAttributes: Equatable {
    var highway: HighwayClass
    var surface: Surface
    var smoothness: Smoothness
    /// The raw OSM `surface=*` and `smoothness=*` values ("" when untagged), kept for path
    /// details (issue 26): the folded enums above lose e.g. `unhewn_cobblestone` and `grass_paver`.
    var surfaceTag = ""
    var smoothnessTag = ""
    var flags: EdgeFlags
    /// Numeric incline in percent along the drawing direction, or nil.
    var incline: Double?
    var name: String

    /// `cycleway*` values that mean a bike lane or track is there.
    static let bikeLaneValues: Set<String> = ["lane", "track", "opposite_lane", "opposite_track", "shared_lane", "share_busway", "separate", "yes", "opposite", "shoulder"]
    /// `ramp:*` keys whose `yes` gives a flight of steps a ramp a board can roll on.
    static let rampKeys = ["ramp", "ramp:stroller", "ramp:bicycle", "ramp:wheelchair", "ramp:luggage"]
    /// `conveying` values that make steps an escalator (forward/backward give its direction).
    static let conveyingValues: Set<String> = ["yes", "forward", "backward", "reversible"]

    /// Flights of steps on this way (`step_count`), 0 when untagged.
    var stepCount: Int = 0

    /// Parses a way's tags; nil when it is not a way anyone may use (see `HighwayClass(osm:)`).
    /// Ways a skater may not use (motorways, private roads, road tunnels…) are kept with their
    /// `AccessModel` verdict, so a route that has no other line can still be told where it breaks
    /// the rules. `highway=elevator` ways are lifts: `MapCompiler`'s connector pass handles them.
    init?(tags: OSMTags) {
        guard let hw = tags["highway"], let cls = HighwayClass(osm: hw), cls != .elevator else { return nil }
        if tags["area"] == "yes" && cls != .pedestrian && cls != .footway && cls != .platform && cls != .service {
            // Area outlines of other highway kinds (e.g. a roundabout's island) are not paths.
            return nil
        }
        highway = cls
        surface = tags["surface"].map(Surface.init(osm:)) ?? .unknown
        smoothness = tags["smoothness"].map(Smoothness.init(osm:)) ?? .unknown
        surfaceTag = tags["surface"] ?? ""
        smoothnessTag = tags["smoothness"] ?? ""
        name = tags["name"] ?? tags["ref"] ?? ""
        var f: EdgeFlags = []
        switch tags["oneway"] {
        case "yes", "1", "true": f.insert(.oneway)
        case "-1", "reverse": f.insert(.onewayReverse)
        default: if tags["junction"] == "roundabout" || tags["junction"] == "circular" { f.insert(.oneway) }
        }
        if tags["junction"] == "roundabout" { f.insert(.roundabout) }
        switch tags["lit"] {
        case nil: break
        case "no", "disused": f.insert(.unlit)
        default: f.insert(.lit)
        }
        if let b = tags["bridge"], b != "no" { f.insert(.bridge) }
        if let t = tags["tunnel"], t != "no" { f.insert(.tunnel) }
        if cls == .cycleway { f.insert(.bikeLane) }
        for key in ["cycleway", "cycleway:both", "cycleway:left", "cycleway:right"] {
            if let v = tags[key], Self.bikeLaneValues.contains(v) { f.insert(.bikeLane) }
        }
        if let b = tags["bicycle"] {
            if b == "no" || b == "dismount" { f.insert(.bicycleNo) }
            if b == "yes" || b == "designated" { f.insert(.wheelsDesignated) }
        }
        if let ft = tags["foot"] {
            if ft == "no" { f.insert(.footNo) }
            if ft == "designated" { f.insert(.wheelsDesignated) }
        }
        if let s = tags["sidewalk"] ?? tags["sidewalk:both"], ["both", "left", "right", "yes", "separate"].contains(s) { f.insert(.sidewalk) }
        if tags["sidewalk:left"] == "yes" || tags["sidewalk:right"] == "yes" { f.insert(.sidewalk) }
        let conveying = tags["conveying"].map { Self.conveyingValues.contains($0) } ?? false
        if cls == .steps && !conveying { f.insert(.steps) }
        if conveying {
            // An escalator or moving walkway: a connector, ridden standing, in its direction only.
            f.insert(.connector)
            f.subtract([.oneway, .onewayReverse])
            if tags["conveying"] == "forward" { f.insert(.oneway) }
            if tags["conveying"] == "backward" { f.insert(.onewayReverse) }
            if let oh = tags["opening_hours"], oh != "24/7" { f.insert(.limitedHours) }
        }
        if cls == .steps && Self.rampKeys.contains(where: { tags[$0] == "yes" }) { f.insert(.stepsRamp) }
        if cls == .steps, let sc = tags["step_count"].flatMap({ Int($0.trimmingWhitespace()) }), sc > 0, sc < 10_000 {
            stepCount = sc
        }
        if let a = tags["access"], ["destination", "delivery", "permissive", "customers"].contains(a) { f.insert(.accessLimited) }
        if tags["footway"] == "sidewalk" { f.insert(.isSidewalk) }
        if tags["footway"] == "crossing" || tags["cycleway"] == "crossing" || tags["path"] == "crossing" { f.insert(.isCrossing) }
        if (cls == .pedestrian && tags["area"] == "yes") || tags["place"] == "square" { f.insert(.plaza) }
        incline = nil
        if let inc = tags["incline"] {
            f.insert(.inclineTagged)
            if let pct = Self.parseIncline(inc) { incline = pct }
            else if inc == "up" { f.insert(.inclineUp) }
            else if inc == "down" { f.insert(.inclineDown) }
        }
        f.formUnion(AccessModel.flags(AccessModel.classify(highway: cls, bikeLane: f.contains(.bikeLane)) { tags[$0] }))
        flags = f
    }

    /// Parses a numeric incline ("12%", "-8 %", "5°", "0.1") into percent; nil for up/down/garbage.
    static func parseIncline(_ raw: String) -> Double? {
        var s = raw.trimmingWhitespace()
        var degrees = false
        if s.hasSuffix("%") { s.removeLast() }
        else if s.hasSuffix("°") { s.removeLast(); degrees = true }
        s = s.trimmingWhitespace().replacing(",", with: ".")
        guard let v = Double(s), v.isFinite else { return nil }
        let pct = degrees ? tan(v * .pi / 180) * 100 : v
        // Beyond ±100 % (45°) is a tagging error for anything rideable or walkable.
        guard abs(pct) <= 100 else { return nil }
        return pct
    }
}

/// Node tags the router uses.
enum NodeAttributes {
    static func flags(_ tags: OSMTags) -> NodeFlags {
        var f: NodeFlags = []
        let hw = tags["highway"]
        if hw == "crossing" || tags["crossing"] != nil || tags["railway"] == "crossing" || tags["railway"] == "level_crossing" {
            if tags["crossing"] != "no" { f.insert(.crossing) }
        }
        if hw == "traffic_signals" || tags["crossing"] == "traffic_signals" || tags["crossing:signals"] == "yes" { f.insert(.trafficSignals) }
        if hw == "stop" || hw == "give_way" { f.insert(.stopSign) }
        switch tags["kerb"] {
        case "raised", "rolled", "yes", "regular": f.insert(.kerbRaised)
        case "lowered", "flush", "no": f.insert(.kerbLowered)
        default: break
        }
        if let b = tags["barrier"], ["gate", "lift_gate", "swing_gate", "stile", "turnstile", "kissing_gate", "fence", "wall"].contains(b) {
            f.insert(.barrier)
        }
        return f
    }
}

/// Classifies named OSM objects into searchable places.
enum PlaceClassifier {
    /// The place kind and its "key=value" category, or nil when the tags make no place.
    static func classify(_ tags: OSMTags) -> (PlaceKind, String)? {
        if tags["leisure"] == "skatepark" || tags["sport"] == "skateboard" { return (.skatepark, "leisure=skatepark") }
        // A named ledge, stair set or plaza tagged for skating (skateboard=yes/designated/…); "no" is a ban, not a spot.
        if let v = tags["skateboard"], v != "no" { return (.skatepark, "skateboard=\(v)") }
        if tags["place"] == "square" { return (.square, "place=square") }
        if tags["highway"] == "pedestrian" && (tags["area"] == "yes" || tags["area:highway"] != nil) { return (.pedestrianArea, "highway=pedestrian") }
        if let v = tags["place"] { return (.place, "place=\(v)") }
        if let v = tags["amenity"] { return (.amenity, "amenity=\(v)") }
        if let v = tags["shop"] { return (.shop, "shop=\(v)") }
        if let v = tags["tourism"] { return (.tourism, "tourism=\(v)") }
        if let v = tags["leisure"] { return (.leisure, "leisure=\(v)") }
        if let v = tags["historic"] { return (.other, "historic=\(v)") }
        if let v = tags["railway"], v == "station" || v == "halt" { return (.other, "railway=\(v)") }
        if let v = tags["public_transport"], v == "station" { return (.other, "public_transport=\(v)") }
        // A named stop is named for the place it serves ("Bismarckplatz"): often the only object
        // carrying a square's name in extracts filtered for routing.
        if tags["railway"] == "tram_stop" || tags["highway"] == "bus_stop" || tags["public_transport"] == "stop_position"
            || tags["public_transport"] == "platform" { return (.other, stopCategory) }
        return nil
    }

    /// Category of every public-transport stop (tram, bus, platform, stop position): one, so a
    /// stop's pieces merge (`MapCompiler.stopDedupRadius`).
    static let stopCategory = "public_transport=stop"

    /// An object's own town: `addr:city`, else the first part of `is_in`.
    static func ownTown(_ tags: OSMTags) -> String? {
        if let c = tags["addr:city"], !c.isEmpty { return c }
        return tags["is_in"].flatMap(TownEvidenceCollector.isInTown)
    }

    /// The no-report zone kind of an area's tags.
    static func zone(_ tags: OSMTags) -> ZoneKind? {
        switch tags["amenity"] {
        case "school": return .school
        case "hospital": return .hospital
        case "kindergarten", "childcare": return .kindergarten
        default: return nil
        }
    }
}
