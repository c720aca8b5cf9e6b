import SkateCore
import SkateRide

/// What a finished ride taught the store (issue 28): the arrival panel says it, and asks about
/// the ride's bumps when there are any.
public struct RideLearning: Hashable, Sendable {
    /// The ride's id in the store (`impactEvent.rideId`).
    public var rideId: String
    /// Why nothing was learned ("simulated rider", "no store"), nil when the ride fed the store.
    public var notLearning: String?
    /// Edge figures stored (count).
    public var edges: Int
    /// Impacts of this ride the store holds (count): learned now, or by an earlier replay of the
    /// same recording (`alreadyKnown`).
    public var impacts: Int
    /// True when the store already held this ride's impacts (a replay teaches nothing twice).
    public var alreadyKnown: Bool
    /// Why the impacts were withheld (a flood of events, degraded motion), nil otherwise.
    public var withheld: String?

    public init(rideId: String, notLearning: String? = nil, edges: Int = 0, impacts: Int = 0, alreadyKnown: Bool = false, withheld: String? = nil) {
        self.rideId = rideId; self.notLearning = notLearning; self.edges = edges; self.impacts = impacts
        self.alreadyKnown = alreadyKnown; self.withheld = withheld
    }

    /// The arrival panel's "Learned" value.
    public var text: String {
        if let why = notLearning { return "nothing (\(why))" }
        var s = "\(edges) edge figure\(edges == 1 ? "" : "s"), \(impacts) impact\(impacts == 1 ? "" : "s")"
        if alreadyKnown { s += " (already stored)" }
        if let w = withheld { s += "; impacts withheld: " + TerminalSafe.clean(w) }
        return s
    }
}

/// The arrival question about a recorded ride's bumps ("3 bumps detected — mark as pothole?")
/// and the rider's answer.
public struct ImpactPrompt: Hashable, Sendable {
    public var rideId: String
    /// Impacts of the ride in the store (count).
    public var count: Int
    /// The rider's answer: true marked them as potholes, false dismissed them, nil not yet.
    public var answer: Bool?

    public init(rideId: String, count: Int, answer: Bool? = nil) { self.rideId = rideId; self.count = count; self.answer = answer }

    /// The question, or what the answer did.
    public var text: String {
        let n = "\(count) bump\(count == 1 ? "" : "s")"
        switch answer {
        case nil: return "\(n) detected — mark as pothole?"
        case true?: return "\(n) marked as pothole\(count == 1 ? "" : "s")"
        case false?: return "\(n) dismissed"
        }
    }
}
