/// Out-and-back spurs cut from a round trip (issue 32: ≤ 10 % ridden twice).
///
/// A loop is routed leg by leg through waypoints on a circle; a waypoint that snaps onto a
/// dead-end street or past a junction makes the line ride out to it and straight back. Such a
/// spur adds twice its length and counts all of it as ridden twice, yet shows the rider nothing
/// new. `cut` removes every immediate back-track — a leg followed by the same edge the other way
/// — repeatedly, as a word is reduced in a free group, so a spur of several edges folds away
/// edge by edge. What remains starts and ends where the line did and rides only metres it rode
/// before, each in a direction it was ridden, so legality and one-way rules still hold.
enum LoopSpurs {
    /// Offsets closer than this (metres) are the same point of an edge: legs meet there.
    static let joinTolerance = 0.01

    /// `legs` with every out-and-back stretch removed.
    static func cut(_ legs: [RouteLeg]) -> [RouteLeg] {
        var out: [RouteLeg] = []
        out.reserveCapacity(legs.count)
        for leg in legs {
            var next: RouteLeg? = leg
            // Fold the leg into the ones before it while it turns straight back on them.
            while let n = next, let top = out.last, top.edge == n.edge, top.reversed != n.reversed,
                  abs(top.endOffset - n.startOffset) <= joinTolerance {
                out.removeLast()
                let from = top.startOffset, to = n.endOffset
                // Back where the first leg started: both vanish. Otherwise what is left rides from
                // the first leg's start to the second one's end, over metres one of them rode in
                // that direction.
                next = abs(to - from) <= joinTolerance ? nil : RouteLeg(edge: n.edge, reversed: to < from, startOffset: from, endOffset: to)
            }
            if let n = next { out.append(n) }
        }
        return out
    }
}
