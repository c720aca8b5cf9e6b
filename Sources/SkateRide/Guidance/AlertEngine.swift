import FoundationEssentials
import Glibc
import SkateCore

/// What an alert is about.
public enum AlertKind: String, Sendable, CaseIterable {
    case hazard, place, spot

    /// Position in `allCases`.
    var slot: Int {
        switch self {
        case .hazard: return 0
        case .place: return 1
        case .spot: return 2
        }
    }

    /// Radius (metres) that raises the alert. Hazard: 60 m is ~12 s at a 5 m/s cruise, enough to
    /// brake at the 0.25 g a rider manages on a board (5²/(2·0.25·9.81) ≈ 5 m) with time to look;
    /// place: 100 m says "nearly there"; spot: 150 m, far enough to decide on a detour.
    public var defaultRadius: Double {
        switch self {
        case .hazard: return 60
        case .place: return 100
        case .spot: return 150
        }
    }
}

/// A thing to alert about: a live hazard, a saved place or a spot.
public struct AlertTarget: Sendable, Equatable {
    public var kind: AlertKind
    /// Stable key ("hazard:12", "place:Home"…): one alert per key per cooldown.
    public var id: String
    public var name: String
    public var at: Coordinate
    public init(kind: AlertKind, id: String, name: String, at: Coordinate) {
        self.kind = kind; self.id = id; self.name = name; self.at = at
    }
}

/// One raised alert.
public struct Alert: Sendable, Equatable {
    public var target: AlertTarget
    /// Ride time (s) the alert was raised.
    public var t: Double
    /// Metres to the target then.
    public var distance: Double
    /// Seconds from crossing the radius (interpolated between positions) to the alert: the
    /// alert latency in sim time.
    public var latency: Double
}

/// Raises an alert when the rider enters a target's radius: once per target, re-armed only after
/// leaving `rearmFactor` × the radius and `cooldown` seconds. Hazards alert only when ahead (the
/// rider's heading within `aheadHalfAngle` of the bearing to it), so passing one does not ring.
public struct AlertEngine: Sendable {
    /// Seconds before the same target can alert again.
    public static let defaultCooldown = 300.0
    /// Leaving this multiple of the radius re-arms a target (no flicker at the edge of the circle).
    public static let rearmFactor = 1.5
    /// Degrees either side of the heading that count as ahead.
    public static let aheadHalfAngle = 60.0

    public var targets: [AlertTarget] { didSet { assignSlots() } }
    public var radius: [AlertKind: Double]
    public var cooldown: Double
    /// State per target id (one alert per key per cooldown), in slots: `slotOfId` gives an id's
    /// slot once, `slotOfTarget` each target's, so a tick reads arrays instead of hashing a
    /// String per target (the hashing was a quarter of a headless replay).
    private var slotOfId: [String: Int] = [:]
    private var slotOfTarget: [Int] = []
    private var lastAlert: [Double?] = []
    private var armed: [Bool?] = []
    private var prevDistance: [Double?] = []
    private var prevT: Double?

    public init(targets: [AlertTarget], radius: [AlertKind: Double] = [:], cooldown: Double = AlertEngine.defaultCooldown) {
        self.targets = targets
        self.radius = Dictionary(uniqueKeysWithValues: AlertKind.allCases.map { ($0, radius[$0] ?? $0.defaultRadius) })
        self.cooldown = cooldown
        assignSlots()
    }

    /// Gives every target the slot of its id (new ids get fresh, empty slots; known ids keep theirs).
    private mutating func assignSlots() {
        slotOfTarget = targets.map { t in
            if let s = slotOfId[t.id] { return s }
            let s = lastAlert.count
            slotOfId[t.id] = s
            lastAlert.append(nil); armed.append(nil); prevDistance.append(nil)
            return s
        }
    }

    /// Feeds the rider's position at ride time `t` (s) and heading (degrees, nil when still);
    /// returns the alerts raised now.
    public mutating func update(t: Double, position: Coordinate, heading: Double?) -> [Alert] {
        var out: [Alert] = []
        let radii = AlertKind.allCases.map { radius[$0]! }
        for (index, target) in targets.enumerated() {
            let r = radii[target.kind.slot]
            let d = Geo.distance(position, target.at)
            let key = slotOfTarget[index]
            defer { prevDistance[key] = d }
            if d > r * Self.rearmFactor { armed[key] = true }
            guard d <= r, armed[key] ?? true else { continue }
            if let last = lastAlert[key], t - last < cooldown { continue }
            if target.kind == .hazard, d > 1 {
                guard let h = heading else { continue }
                let bearing = Geo.bearing(position, target.at)
                var diff = abs(bearing - h).truncatingRemainder(dividingBy: 360)
                if diff > 180 { diff = 360 - diff }
                guard diff <= Self.aheadHalfAngle else { continue }
            }
            // When the radius was crossed: interpolated between the previous position and this one.
            var crossed = t
            if let pd = prevDistance[key], let pt = prevT, pd > r, pd > d {
                crossed = pt + (pd - r) / (pd - d) * (t - pt)
            }
            out.append(Alert(target: target, t: t, distance: d, latency: max(0, t - crossed)))
            lastAlert[key] = t
            armed[key] = false
        }
        prevT = t
        return out
    }
}
