@testable import SkateCore
import SkateTestSupport
import Testing

/// The steep metres only a window across an edge joint sees, charged on the turn
/// (`JointSteepCharge`, issue 26 twelfth round).
@Suite struct JointSteepChargeTests {
    /// Metres of each short edge of the direct descent: the steep ones and the gentle ones.
    static let steepEdge = 10.0, gentleEdge = 20.0
    /// Grades (percent) of the steep and the gentle edges: a 30 m window over a gentle edge and the
    /// steep one before it reads (10 × 14 + 20 × 6.5) / 30 = −9 %, braking; the gentle edge alone
    /// reads −6.5 % (caution), the steep one −14 % (braking, not yet walked).
    static let steepPct = -14.0, gentlePct = -6.5
    /// Steep and gentle pairs on the direct line.
    static let pairs = 5

    /// A–…–K (west to east, 150 m): five 10 m edges at −14 %, each followed by a 20 m edge at
    /// −6.5 %, every one of them its own way (so its own edge, shorter than the 30 m window).
    /// A–L–M–K: north `detourNorth` metres, east 150 m, south again, losing the same height
    /// evenly (−4.3 % with 100 m). The letters of the direct line sit on every second column
    /// (50 m), nudged west to their true spots.
    static func map(detourNorth: Double, detourTags: [String: String] = ["highway": "footway", "surface": "asphalt"]) -> AsciiMap {
        let letters = Array("ABCDEFGHIJK")
        var x = [0.0]
        for i in 0..<(2 * pairs) { x.append(x[i] + (i % 2 == 0 ? steepEdge : gentleEdge)) }
        func direct(_ at: Double) -> Double {
            var h = 100.0, s = 0.0
            for i in 0..<(2 * pairs) {
                let len = i % 2 == 0 ? steepEdge : gentleEdge, pct = i % 2 == 0 ? steepPct : gentlePct
                h += pct / 100 * min(max(at - s, 0), len)
                s += len
            }
            return h
        }
        let total = x.last!, drop = 100 - direct(total)
        let art = "L" + String(repeating: " ", count: 19) + "M\n" + String(repeating: "\n", count: 3) + letters.map(String.init).joined(separator: " ")
        var nudge: [Character: (east: Double, south: Double)] = [:]
        for (i, ch) in letters.enumerated() { nudge[ch] = (x[i] - Double(2 * i) * AsciiMap.metresPerChar, 0) }
        // L and M: `detourNorth` metres north of the bottom row (4 rows = 100 m below the top one).
        let north = 4 * AsciiMap.metresPerChar - detourNorth
        nudge["L"] = (0, north)
        nudge["M"] = (total - 20 * AsciiMap.metresPerChar, north)
        var ways: [(String, [String: String])] = (0..<(2 * pairs)).map { i in
            (String([letters[i], letters[i + 1]]), ["highway": "footway", "surface": "asphalt"])
        }
        ways.append(("ALMK", detourTags))
        let gentleLength = 2 * detourNorth + total
        return AsciiMap(art, ways: ways, nodeTags: ["L": ["highway": "traffic_signals"], "M": ["highway": "traffic_signals"]], elevation: { e, n in
            // n: metres north of the top row; the direct line is `4 * metresPerChar` south of it.
            let bottom = -4 * AsciiMap.metresPerChar
            if n < bottom + 1 { return direct(e) }
            // Along A–L–M–K: up the west side, along the top, down the east side.
            let along = e < 1 ? n - bottom : (e > total - 1 ? detourNorth + total + (bottom + detourNorth - n) : detourNorth + e)
            return 100 - drop * along / gentleLength
        }, nudge: nudge)
    }

    /// The gentle line's way: a secondary road without a sidewalk, rated intermediate (meh), so
    /// that without the joint charge it costs more than the direct descent's per-edge price.
    static let gentleTags = ["highway": "secondary", "surface": "asphalt", "smoothness": "intermediate", "sidewalk": "no"]

    @Test func aDescentCutIntoShortEdgesIsAvoidedByTheGentleLine() throws {
        let m = Self.map(detourNorth: 60, detourTags: Self.gentleTags)
        // Each edge of the direct line is shorter than the per-edge window.
        let short = (0..<m.map.edgeCount).filter { Double(m.map.edgeLength[$0]) < BrakingGrade.windowMetres }
        #expect(short.count == 2 * Self.pairs, "\(short.count) short edges")
        let old = JointSteepCharge.$override.withValue(0) { Planner(map: m.map).router(for: .smoothest) }
        let new = Planner(map: m.map).router(for: .smoothest)
        #expect(old.costing.jointShare == 0 && new.costing.jointShare == JointSteepCharge.share)
        let sa = try new.snap(m.nodes["A"]!), sb = try new.snap(m.nodes["K"]!)
        let oldLine = try #require(old.bestRoute(from: sa, to: sb)), newLine = try #require(new.bestRoute(from: sa, to: sb))
        #expect(m.letters(of: oldLine) == "ABCDEFGHIJK", "without the joint charge the search rode \(m.letters(of: oldLine))")
        #expect(m.letters(of: newLine) == "ALMK", "with the joint charge the search rode \(m.letters(of: newLine))")
        // The direct line really brakes along most of its length by the whole-line rule (150 m;
        // the per-edge count holds only the 50 m of steep edges), and the gentle line does not.
        let builder = PlanBuilder(map: m.map, costing: new.costing, knowledge: .empty)
        let oldWhole = PlanBuilder.total(builder.steepMetresPerLeg(oldLine))
        let newWhole = PlanBuilder.total(builder.steepMetresPerLeg(newLine))
        #expect(oldWhole.braking > 100, "direct line: \(oldWhole)")
        #expect(newWhole.braking + newWhole.caution == 0, "gentle line: \(newWhole)")
        // The charge is what moved the line: the gentle line costs more than the direct one
        // without it, less with it.
        #expect(Planner.trueCost(newLine, router: old) > Planner.trueCost(oldLine, router: old))
        #expect(Planner.trueCost(newLine, router: new) < Planner.trueCost(oldLine, router: new))
    }

    /// The screen that skips a turn's computation is never wrong: on seeded random height
    /// profiles, wherever the joint metres are not zero the two screens add up to ≥ 0.
    @Test func theScreenNeverSkipsATurnWithJointMetres() {
        var rng = SplitMix64(seed: 2612)
        var charged = 0, screenedOut = 0
        for _ in 0..<200 {
            let heights = (0..<8).map { _ in Double(rng.next() % 30) / 10 }
            // A–B–C–D west to east, 10–30 m edges, heights from the seeded list at each node and
            // between (a bumpy descent or climb in any mix).
            let lens = (0..<3).map { _ in 10 + Double(rng.next() % 21) }
            let m = AsciiMap("A B C D", ways: [("AB", ["highway": "footway"]), ("BC", ["highway": "footway"]), ("CD", ["highway": "footway"])],
                             elevation: { e, _ in
                                 let t = max(0, min(7, e / (lens.reduce(0, +) / 7)))
                                 let i = min(6, Int(t)), f = t - Double(i)
                                 return 100 - heights[i] * (1 - f) - heights[i + 1] * f
                             },
                             nudge: ["B": (lens[0] - 50, 0), "C": (lens[0] + lens[1] - 100, 0), "D": (lens.reduce(0, +) - 150, 0)])
            let costing = SkateCosting(map: m.map, table: EdgeTable(map: m.map, knowledge: .empty), mode: .smoothest)
            guard costing.joint != nil else { Issue.record("no joint cache on a map with heights"); return }
            for a in 0..<m.map.edgeCount {
                for b in 0..<m.map.edgeCount where a != b {
                    for (ar, br) in [(false, false), (false, true), (true, false), (true, true)] {
                        let end = ar ? m.map.edgeFrom[a] : m.map.edgeTo[a], start = br ? m.map.edgeTo[b] : m.map.edgeFrom[b]
                        guard end == start else { continue }
                        let metres = costing.jointMetres(from: a, fromReversed: ar, to: b, toReversed: br)
                        let screen = Double(costing.jointScreen(edge: a, reversed: ar, arriving: true))
                            + Double(costing.jointScreen(edge: b, reversed: br, arriving: false))
                        if metres.braking + metres.caution > 0 {
                            charged += 1
                            #expect(screen >= -JointSteepCharge.screenSlackMetres, "screen \(screen) skips \(metres) (edges \(a)\(ar ? "r" : "") → \(b)\(br ? "r" : ""), lengths \(lens))")
                        } else if screen < -JointSteepCharge.screenSlackMetres { screenedOut += 1 }
                    }
                }
            }
        }
        // Both cases happen (else the property is vacuous).
        #expect(charged > 20, "\(charged) turns with joint metres")
        #expect(screenedOut > 20, "\(screenedOut) turns screened out")
    }
}
