import FoundationEssentials
import Glibc
import SkateCore

/// Totals over a set of rides.
public struct RideTotals: Sendable, Equatable {
    public var rides = 0
    /// Metres.
    public var distance = 0.0
    /// Seconds.
    public var duration = 0.0
    public var movingTime = 0.0
    /// Metres.
    public var climb = 0.0
    public var descent = 0.0
    public var crustyMetres = 0.0
    /// m/s.
    public var maxSpeed = 0.0
    public init() {}
}

/// Distance ridden in one week (Monday 00:00 in the given time zone).
public struct WeekBar: Sendable, Equatable {
    public var weekStart: Date
    public var distance: Double
    public var rides: Int
}

/// A badge earned from the ride history: what it is, the rule, and when it was earned.
public struct Badge: Sendable, Equatable {
    public var id: String
    public var title: String
    public var rule: String
    public var earnedAt: Date
    /// The ride that earned it, when one did.
    public var rideId: String?
}

/// Which rides `stats` sums.
public enum StatsPeriod: String, Sendable, CaseIterable {
    case week, month, all
}

/// Stats, per-week bars and badges from the ride history (pure: time and time zone come in).
public enum RideStats {
    /// Weeks shown as bars.
    public static let barWeeks = 8

    /// The start of the period containing `now` (nil: all time).
    public static func periodStart(_ p: StatsPeriod, now: Date, timeZone: TimeZone) -> Date? {
        let cal = calendar(timeZone)
        switch p {
        case .all: return nil
        case .week: return weekStart(now, cal)
        case .month: return cal.date(from: cal.dateComponents([.year, .month], from: now))
        }
    }

    public static func totals(_ rides: [RideRecord], from start: Date?, to end: Date) -> RideTotals {
        var t = RideTotals()
        for r in rides {
            let at = Date(timeIntervalSince1970: r.startEpoch)
            if let s = start, at < s { continue }
            if at > end { continue }
            t.rides += 1
            t.distance += r.distance; t.duration += r.duration; t.movingTime += r.movingTime
            t.climb += r.climb; t.descent += r.descent; t.crustyMetres += r.crustyMetres
            t.maxSpeed = max(t.maxSpeed, r.maxSpeed)
        }
        return t
    }

    /// The last `barWeeks` weeks up to `now`, oldest first.
    public static func weeks(_ rides: [RideRecord], now: Date, timeZone: TimeZone, count: Int = barWeeks) -> [WeekBar] {
        let cal = calendar(timeZone)
        let thisWeek = weekStart(now, cal)
        var bars = (0..<count).reversed().map { k in
            WeekBar(weekStart: cal.date(byAdding: .weekOfYear, value: -k, to: thisWeek)!, distance: 0, rides: 0)
        }
        for r in rides {
            let ws = weekStart(Date(timeIntervalSince1970: r.startEpoch), cal)
            if let i = bars.firstIndex(where: { $0.weekStart == ws }) { bars[i].distance += r.distance; bars[i].rides += 1 }
        }
        return bars
    }

    // MARK: Badges

    /// Cumulative-distance badges (metres, id, title).
    static let distanceBadges: [(Double, String, String)] = [
        (10_000, "distance_10km", "10 km with SkateRoute"),
        (100_000, "distance_100km", "100 km with SkateRoute"),
        (1_000_000, "distance_1000km", "1,000 km with SkateRoute"),
    ]
    /// One ride this long (metres) earns "long ride".
    public static let longRide = 10_000.0
    /// Total descent (metres) for the descent badge.
    public static let descentBadge = 1_000.0
    /// A ride starting at or after this local hour, or before `nightEnd`, is a night ride: civil
    /// dusk to dawn in Monaco's summer is about 21:30–05:30; a round 21–05 holds the year round.
    public static let nightStart = 21, nightEnd = 5
    /// Hazards the rider reported that other riders confirmed, for "trusted reporter".
    public static let confirmedHazardsBadge = 10

    /// Every badge the history has earned, in the order they were earned. `hazardsConfirmed`: for
    /// each hazard the rider reported that someone else confirmed, the first confirmation's time.
    public static func badges(_ rides: [RideRecord], hazardsConfirmed: [Date] = [], timeZone: TimeZone) -> [Badge] {
        let ordered = rides.sorted { ($0.startEpoch, $0.rideId) < ($1.startEpoch, $1.rideId) }
        var out: [Badge] = []
        func day(_ r: RideRecord) -> Date { Date(timeIntervalSince1970: r.startEpoch) }
        if let first = ordered.first {
            out.append(Badge(id: "first_ride", title: "First ride", rule: "record a first ride", earnedAt: day(first), rideId: first.rideId))
        }
        var total = 0.0, desc = 0.0
        var pending = distanceBadges
        var descentDone = false, longDone = false, nightDone = false
        let cal = calendar(timeZone)
        for r in ordered {
            total += r.distance
            desc += r.descent
            while let (m, id, title) = pending.first, total >= m {
                out.append(Badge(id: id, title: title, rule: "ride \(Int(m / 1000)) km in total (all recorded rides)", earnedAt: day(r), rideId: r.rideId))
                pending.removeFirst()
            }
            if !descentDone, desc >= descentBadge {
                descentDone = true
                out.append(Badge(id: "descent_1000m", title: "1,000 m descended", rule: "descend \(Int(descentBadge)) m in total (map elevation of the ridden edges)",
                                 earnedAt: day(r), rideId: r.rideId))
            }
            if !longDone, r.distance >= longRide {
                longDone = true
                out.append(Badge(id: "long_ride_10km", title: "Long ride", rule: "ride \(Int(longRide / 1000)) km in one ride", earnedAt: day(r), rideId: r.rideId))
            }
            let hour = cal.component(.hour, from: day(r))
            if !nightDone, hour >= nightStart || hour < nightEnd {
                nightDone = true
                out.append(Badge(id: "night_rider", title: "Night rider",
                                 rule: "start a ride between \(nightStart):00 and 0\(nightEnd):00 local time (\(timeZone.identifier))",
                                 earnedAt: day(r), rideId: r.rideId))
            }
        }
        let confirmed = hazardsConfirmed.sorted()
        if confirmed.count >= confirmedHazardsBadge {
            out.append(Badge(id: "hazards_confirmed_10", title: "Trusted reporter",
                             rule: "\(confirmedHazardsBadge) of your hazard reports confirmed by other riders",
                             earnedAt: confirmed[confirmedHazardsBadge - 1], rideId: nil))
        }
        return out.sorted { $0.earnedAt < $1.earnedAt }
    }

    static func calendar(_ tz: TimeZone) -> Calendar {
        var cal = Calendar(identifier: .iso8601)
        cal.timeZone = tz
        cal.firstWeekday = 2
        return cal
    }

    static func weekStart(_ d: Date, _ cal: Calendar) -> Date {
        cal.date(from: cal.dateComponents([.yearForWeekOfYear, .weekOfYear], from: d))!
    }
}
