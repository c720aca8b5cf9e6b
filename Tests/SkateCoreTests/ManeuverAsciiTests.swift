import Foundation
@testable import SkateCore
import SkateTestSupport
import Testing

/// Issue 30's maneuver builder on maps a reader can see: stairs are a step of their own, lifts
/// and escalators in a row are one step, a short jog off a street and back is no step, unnamed
/// ways are named by what they are and what is near, slivers between connectors fold, and a
/// step's legality notes carry their own metres.
@Suite struct ManeuverAsciiTests {
    func plan(_ m: AsciiMap, _ a: Character, _ b: Character, _ mode: RideMode = .smoothest) throws -> RoutePlan {
        try Planner(map: m.map).plan(from: m.nodes[a]!, to: m.nodes[b]!, mode: mode)
    }

    func texts(_ p: RoutePlan) -> [String] { p.steps.map(\.instruction) }

    @Test func stairsInTheMiddleOfAStreetAreAStepOfTheirOwn() throws {
        // Rue Haute A–B (125 m), 8 m of stairs B–C (16 steps, down in the drawing direction; C is
        // nudged 17 m west), Rue Haute again C–D (142 m). The flight is shorter than a step may be
        // (`minStepLength`), yet it is walked: its own step, never folded into a riding step.
        let m = AsciiMap("""
        A----BC----D
        """, ways: [("AB", ["highway": "residential", "name": "Rue Haute", "surface": "asphalt"]),
                    ("BC", ["highway": "steps", "step_count": "16", "incline": "down"]),
                    ("CD", ["highway": "residential", "name": "Rue Haute", "surface": "asphalt"])],
                    nudge: ["C": (-17, 0)])
        let p = try plan(m, "A", "D")
        #expect(texts(p) == ["Depart east on Rue Haute", "Walk down 16 steps", "Continue onto Rue Haute", "Arrive at destination"], "\(texts(p))")
        for s in p.steps where s.maneuver != .arrive {
            // `walk` and `walk_m` agree: a step is walked exactly when it holds stairs.
            #expect(s.context.walk == (s.context.walkMetres > 0), "\(s.instruction)")
        }
        let walk = try #require(p.steps.first { $0.context.walk })
        #expect(abs(walk.context.walkMetres - walk.context.distance) < 0.5 && abs(walk.context.distance - 8) < 1, "\(walk.context)")
        #expect(PlanFormats.text(p, from: "A", to: "D").contains("Walk down 16 steps — 8 m"))
    }

    /// Four escalators and a lift up a hill: Rue Basse A–B (125 m), escalators B–C (125 m), D–E
    /// (148 m), E–F, F–K (125 m each; D is nudged so C–D is a 2 m straight link), a 3 m link K–L,
    /// the lift at L, Avenue Haute L–G (122 m) one floor up.
    static func escalatorHill() -> AsciiMap { AsciiMap("""
    A----B----CD----E----F----KL----G
    """, ways: [("AB", ["highway": "residential", "name": "Rue Basse", "surface": "asphalt"]),
                ("BC", ["highway": "steps", "conveying": "forward"]), ("CD", ["highway": "footway", "surface": "asphalt"]),
                ("DE", ["highway": "steps", "conveying": "forward"]), ("EF", ["highway": "steps", "conveying": "forward"]),
                ("FK", ["highway": "steps", "conveying": "forward"]), ("KL", ["highway": "footway", "surface": "asphalt"]),
                ("LG", ["highway": "footway", "name": "Avenue Haute", "surface": "asphalt", "layer": "1"])],
                nodeTags: ["L": ["highway": "elevator"]], elevation: { x, _ in x * 0.1 },
                nudge: ["D": (-23, 0), "L": (-22, 0)]) }

    @Test func aChainOfEscalatorsAndALiftIsOneStep() throws {
        let hill = Self.escalatorHill()
        let p = try plan(hill, "A", "G")
        #expect(p.escalatorsUsed == 4 && p.liftsUsed == 1, "\(p.escalatorsUsed) escalators, \(p.liftsUsed) lifts")
        #expect(texts(p) == ["Depart east on Rue Basse", "Take 4 escalators and the lift up to Avenue Haute", "Continue onto Avenue Haute", "Arrive at destination"], "\(texts(p))")
        let chain = p.steps[1]
        #expect(chain.context.escalatorsTaken == 4 && chain.context.liftsTaken == 1)
        // The step's time is the whole chain's boarding, rides and the lift's wait.
        let map = hill.map
        let want = p.path.legs.filter { map.flags(ofEdge: $0.edge).contains(.connector) }
            .reduce(0) { $0 + ConnectorTiming.seconds(highway: map.highway(ofEdge: $1.edge), length: $1.length) }
        #expect(abs(chain.seconds - want) < 2, "\(chain.seconds) s, want \(want)")
        // GPX route points and the JSON speak with the same steps.
        #expect(PlanFormats.gpx(p, name: "t").contains("<name>Take 4 escalators and the lift up to Avenue Haute</name>"))
        #expect(PlanFormats.json(p).contains("\"escalators\" : 4"))
    }

    @Test func aTwoMetreLinkBetweenEscalatorsFoldsUnlessItTurns() throws {
        // Straight: escalator A–B (125 m), a 2 m link B–C (C nudged 23 m west), escalator C–D.
        let straight = AsciiMap("""
        A----BC----D----E
        """, ways: [("AB", ["highway": "steps", "conveying": "forward"]), ("BC", ["highway": "footway", "surface": "asphalt"]),
                    ("CD", ["highway": "steps", "conveying": "forward"]), ("DE", ["highway": "footway", "name": "Quai", "surface": "asphalt"])],
                    nudge: ["C": (-23, 0)])
        let s = try plan(straight, "A", "E")
        #expect(texts(s) == ["Take 2 escalators to Quai", "Continue onto Quai", "Arrive at destination"], "\(texts(s))")
        // Turning: the 2 m link B–C turns the line 90° (C nudged 23 m north of its cell, below B):
        // that turn is the rider's to make, so it stays a step.
        let turning = AsciiMap("""
        A----B
             C
             |
             |
             |
             D----E
        """, ways: [("AB", ["highway": "steps", "conveying": "forward"]), ("BC", ["highway": "footway", "surface": "asphalt"]),
                    ("CD", ["highway": "steps", "conveying": "forward"]), ("DE", ["highway": "footway", "name": "Quai", "surface": "asphalt"])],
                    nudge: ["C": (0, -23)])
        let t = try plan(turning, "A", "E")
        #expect(t.steps.count == 5, "\(texts(t))")
        #expect(t.steps[1].maneuver == .right && t.steps[1].context.distance < 3, "\(texts(t))")
    }

    @Test func aShortJogOffAStreetAndBackIsNoStep() throws {
        // Rue Basse A–B west (125 m); Boulevard des Moulins north B–C (75 m); an unnamed 25 m
        // jog east C–D; Boulevard des Moulins north again D–E (75 m). One step on the boulevard,
        // not "right onto Boulevard des Moulins, right, left onto Boulevard des Moulins".
        let m = AsciiMap("""
              E
              |
              |
             CD
             |
             |
             B----A
        """, ways: [("AB", ["highway": "residential", "name": "Rue Basse", "surface": "asphalt"]),
                    ("BC", ["highway": "residential", "name": "Boulevard des Moulins", "surface": "asphalt"]),
                    ("CD", ["highway": "residential", "surface": "asphalt"]),
                    ("DE", ["highway": "residential", "name": "Boulevard des Moulins", "surface": "asphalt"])])
        let p = try plan(m, "A", "E")
        #expect(texts(p) == ["Depart west on Rue Basse", "Turn right onto Boulevard des Moulins", "Arrive at destination"], "\(texts(p))")
        #expect(abs(p.steps[1].context.distance - 175) < 1)
    }

    @Test func unnamedWaysAreNamedByWhatTheyAreAndWhatIsNear() throws {
        // An unnamed footway A–B (125 m east) passes Place d'Armes (S, 28 m from its middle);
        // an unnamed footway B–C (100 m south) runs through Parc Princesse (P, 75 m from its
        // middle, 106 m from the square); an unnamed sidewalk C–D (75 m east) along Rue Grimaldi
        // (E–F, drawn one row below and nudged 15 m north: 10 m south of it).
        let m = AsciiMap("""
          S
        A----B
             |
             |  P
             |
             C--D
             E--F
        """, ways: [("AB", ["highway": "footway", "surface": "asphalt"]), ("BC", ["highway": "footway", "surface": "asphalt"]),
                    ("CD", ["highway": "footway", "footway": "sidewalk", "surface": "asphalt"]),
                    ("EF", ["highway": "residential", "name": "Rue Grimaldi", "surface": "asphalt"])],
                    places: ["S": ["place": "square", "name": "Place d'Armes"], "P": ["leisure": "park", "name": "Parc Princesse"]],
                    nudge: ["E": (0, -15), "F": (0, -15)])
        let p = try plan(m, "A", "D")
        #expect(texts(p) == ["Depart east across Place d'Armes", "Turn right through Parc Princesse",
                             "Turn left onto the sidewalk along Rue Grimaldi", "Arrive at destination"], "\(texts(p))")
        #expect(p.steps.dropLast().allSatisfy { $0.street.isEmpty }, "street stays the way's own name")
    }

    /// Place du Marché: the way N–A (tagged `entry`, 50 m south) enters it; four unnamed
    /// footways inside it bend at right angles: A–B south, B–C east, C–D south, D–E west (50 m
    /// each; their middles 25–56 m from the square's point S); Rue Sud E–T (50 m south) leaves it.
    func squareMap(entry: [String: String]) -> AsciiMap {
        AsciiMap("""
          N
          |
          A
          |
          B-C
           S|
          E-D
          |
          T
        """, ways: [("NA", entry),
                    ("AB", ["highway": "footway", "surface": "asphalt"]), ("BC", ["highway": "footway", "surface": "asphalt"]),
                    ("CD", ["highway": "footway", "surface": "asphalt"]), ("DE", ["highway": "footway", "surface": "asphalt"]),
                    ("ET", ["highway": "residential", "name": "Rue Sud", "surface": "asphalt"])],
                    places: ["S": ["place": "square", "name": "Place du Marché"]])
    }

    @Test func aLineAcrossOneSquareIsOneStepThatSaysHowItLeaves() throws {
        // Rue Nord N–A (50 m south) enters Place du Marché; four unnamed footways inside it bend at
        // right angles: A–B south, B–C east, C–D south, D–E west (50 m each; their middles 25–56 m
        // from the square's point S); Rue Sud E–T (50 m south) leaves it. Each footway read
        // "across Place du Marché" as a step of its own (Marsiliusplatz, Heidelberg); one step now,
        // whose exit turn is the heading change from A–B (south) to D–E (west): right.
        let p = try plan(squareMap(entry: ["highway": "residential", "name": "Rue Nord", "surface": "asphalt"]), "N", "T")
        #expect(texts(p) == ["Depart south on Rue Nord", "Continue across Place du Marché and leave it to the right",
                             "Turn left onto Rue Sud", "Arrive at destination"], "\(texts(p))")
        #expect(abs(p.steps[1].context.distance - 200) < 1, "\(p.steps[1].context.distance)")
    }

    @Test func aRouteThatStartsOnTheSquaresNamedWayCrossesItInOneStep() throws {
        // The same square, entered not by a street but by a pedestrian way carrying the square's
        // own name (N–A, its outline): before, "Depart south on Place du Marché" then "Continue
        // across Place du Marché" (Marsiliusplatz, Heidelberg: "Depart west on Marsiliusplatz —
        // 20 m", "Turn sharp left across Marsiliusplatz"). One square, one step.
        let p = try plan(squareMap(entry: ["highway": "pedestrian", "name": "Place du Marché", "surface": "asphalt"]), "N", "T")
        #expect(texts(p) == ["Depart south across Place du Marché and leave it to the right",
                             "Turn left onto Rue Sud", "Arrive at destination"], "\(texts(p))")
        #expect(abs(p.steps[0].context.distance - 250) < 1, "\(p.steps[0].context.distance)")
        // A named street beside the unnamed pieces stays a step of its own (the test above).
    }

    @Test func aKinkOfASegmentAtANodeIsNoTurn() throws {
        // Rue Ouest A–B (100 m east); an unnamed footway B–X–C runs on east, but its first
        // segment is a 0.7 m kink (X is 0.3 m east and 0.6 m north of B: bearing 27 degrees).
        // Read from that segment the footway turned 63 degrees left ("Turn left onto the
        // footway"); read over its first 10 m (`RouteChords`) it runs straight on.
        let m = AsciiMap("""
        A---BX---C
        """, ways: [("AB", ["highway": "residential", "name": "Rue Ouest", "surface": "asphalt"]),
                    ("BXC", ["highway": "footway", "surface": "asphalt"])],
                    nudge: ["X": (-24.7, -0.6)])
        let p = try plan(m, "A", "C")
        #expect(p.steps.map(\.maneuver) == [.depart, .continue, .arrive], "\(texts(p))")
    }

    @Test func aStepsLegalityNotesCarryTheirOwnMetres() throws {
        // Avenue X runs 200 m with a sidewalk (A–B) then 50 m without one (B–C): one step, whose
        // note names the 50 m, not the whole step.
        let m = AsciiMap("""
        A-------B-C
        """, ways: [("AB", ["highway": "tertiary", "name": "Avenue X", "sidewalk": "both", "surface": "asphalt"]),
                    ("BC", ["highway": "tertiary", "name": "Avenue X", "sidewalk": "no", "surface": "asphalt"])])
        let p = try plan(m, "A", "C")
        #expect(p.steps.count == 2, "\(texts(p))")
        let notes = p.steps[0].context.accessNotes
        #expect(notes.count == 1 && abs((notes.first?.metres ?? 0) - 50) < 1, "\(notes)")
        #expect(PlanFormats.text(p, from: "A", to: "C").contains("careful: tertiary road without a sidewalk for 50 m"))
        #expect(!PlanFormats.text(p, from: "A", to: "C").contains("instead"))
    }
}
