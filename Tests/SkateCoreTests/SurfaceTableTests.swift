import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// Issue 26 items 1 and 2 on maps a reader can see: the surface family is a ceiling smoothness
/// cannot lift, and braking-grade metres are a real cost.
@Suite struct SurfaceTableTests {
    func estimate(_ surface: String?, _ smoothness: String?, highway: HighwayClass = .residential) -> SurfaceEstimate {
        SurfaceTable.estimate(highway: highway, surface: surface.map { Surface(osm: $0) } ?? .unknown,
                              smoothness: smoothness.map { Smoothness(osm: $0) } ?? .unknown)
    }

    @Test func familyIsACeilingSmoothnessCannotLift() {
        for s in ["sett", "cobblestone", "unhewn_cobblestone", "grass_paver", "gravel", "fine_gravel", "compacted",
                  "dirt", "ground", "grass", "sand", "mud", "woodchips"] {
            for sm in [nil, "excellent", "good", "intermediate"] {
                #expect(estimate(s, sm).roughnessClass == .crusty, "\(s) + \(sm ?? "-")")
            }
        }
        for s in ["paving_stones", "bricks", "wood", "metal", "concrete:plates"] {
            for sm in [nil, "good", "intermediate"] { #expect(estimate(s, sm).roughnessClass == .meh, "\(s) + \(sm ?? "-")") }
            #expect(estimate(s, "excellent").roughnessClass == .okay, "\(s) + excellent")
            #expect(estimate(s, "bad").roughnessClass == .crusty, "\(s) + bad")
        }
    }

    @Test func smoothnessRefinesWithinTheFamilyOnTheSkateScale() {
        #expect(estimate("asphalt", "excellent").roughnessClass == .butter)
        #expect(estimate("asphalt", "good").roughnessClass == .okay)
        #expect(estimate("asphalt", "intermediate").roughnessClass == .meh)
        #expect(estimate("asphalt", "bad").roughnessClass == .crusty)
        #expect(estimate(nil, "intermediate").roughnessClass == .meh)
        #expect(estimate("asphalt", "intermediate").evidence == .tag)
        // Within crusty, smoothness only says "worse than typical".
        #expect(estimate("sett", "horrible").rms > estimate("sett", nil).rms)
        #expect(estimate("sett", "excellent").rms == estimate("sett", nil).rms)
    }

    @Test func untaggedTracksAndPathsAreACrustyGuess() {
        for hw in [HighwayClass.track, .path, .bridleway] {
            let e = estimate(nil, nil, highway: hw)
            #expect(e.roughnessClass == .crusty && e.evidence == .guess && e.confidence < 0.5, "\(hw)")
        }
    }

    @Test func valuesOutsideTheTableAreADocumentedGuessNeverButter() {
        for s in ["asphalt;sett", "unknown", "asphlat", "yes"] {
            for sm in [nil, "excellent"] {
                let e = estimate(s, sm)
                #expect(e.roughnessClass != .butter && e.evidence == .guess, "\(s) + \(sm ?? "-"): \(e)")
            }
        }
        #expect(SurfaceTable.taggedClass(surface: Surface(osm: "asphalt;sett"), smoothness: .unknown) == nil)
    }

    @Test func measuredAndRatedStillWinOverTags() throws {
        let m = AsciiMap("A--------B", ways: [("AB", ["highway": "residential", "surface": "cobblestone"])])
        let e = (0..<m.map.edgeCount).first { m.map.highway(ofEdge: $0) == .residential }!
        #expect(m.map.surfaceEstimate(ofEdge: e).roughnessClass == .crusty)
        let knowledge = RoadKnowledge(observations: [e: EdgeObservation(rms: 0.04, source: .measured, freshness: 1, count: 5)])
        let t = EdgeTable(map: m.map, knowledge: knowledge)
        #expect(t.surfaceEstimate(ofEdge: e).roughnessClass == .butter)
        #expect(t.surfaceEstimate(ofEdge: e).evidence == .measured)
        #expect(m.map.surfaceTag(ofEdge: e) == "cobblestone" && m.map.smoothnessTag(ofEdge: e).isEmpty)
    }

    @Test func cobblestoneTaggedIntermediateReadsCrustyOnAMap() throws {
        let m = AsciiMap("A--------B", ways: [("AB", ["highway": "residential", "surface": "cobblestone", "smoothness": "intermediate"])])
        let plan = try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        #expect(plan.steps.allSatisfy { $0.context.roughnessClass == .crusty }, "\(plan.steps.map(\.context.roughnessClass))")
    }

    /// 100 m of cobblestones inside one 550 m street: the step reads as its mean, so it names the
    /// crusty stretch (where, how long, which surface) in its context, text and JSON.
    @Test func aCrustyStretchInsideASmootherStepIsNamed() throws {
        let street = ["highway": "residential", "name": "Rue Test"]
        let m = AsciiMap("A--------B---C--------D", ways: [("AB", street.merging(["surface": "asphalt"]) { $1 }),
                                                            ("BC", street.merging(["surface": "cobblestone"]) { $1 }),
                                                            ("CD", street.merging(["surface": "asphalt"]) { $1 })])
        let plan = try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["D"]!, mode: .fastMildRoughness)
        let ridden = plan.steps.filter { $0.maneuver != .arrive }
        #expect(ridden.count == 1, "\(ridden.map(\.instruction))")
        let step = try #require(ridden.first)
        #expect(step.context.roughnessClass != .crusty)
        let spans = step.context.roughSpans
        #expect(spans.count == 1, "\(spans)")
        let span = try #require(spans.first)
        let ab = Geo.distance(m.nodes["A"]!, m.nodes["B"]!), bc = Geo.distance(m.nodes["B"]!, m.nodes["C"]!)
        #expect(abs(span.fromM - ab) < 1 && abs(span.lengthM - bc) < 1, "\(span) in \(step.context.distance) m; A–B \(ab) m, B–C \(bc) m")
        #expect(span.surface == "cobblestone")
        #expect(PlanFormats.text(plan, from: "A", to: "D").contains("crusty for \(UnitFormatter.length(span.lengthM)) from"))
        // A street of cobblestones end to end reads crusty itself and names no stretch.
        let all = AsciiMap("A--------B", ways: [("AB", street.merging(["surface": "cobblestone"]) { $1 })])
        let whole = try Planner(map: all.map).plan(from: all.nodes["A"]!, to: all.nodes["B"]!, mode: .fastMildRoughness)
        #expect(whole.steps.allSatisfy { $0.context.roughSpans.isEmpty })
    }

    @Test func twoKilometresOfPavedDetourBeat300MetresOfGravel() throws {
        // A–B: 300 m of gravel its mapper called smooth (which used to read "okay"); the detour
        // A–C–D–B: 850 + 300 + 850 = 2,000 m of asphalt.
        let legRows = 34
        var art = "A------------B\n"
        for _ in 0..<(legRows - 1) { art += "|            |\n" }
        art += "C------------D"
        let m = AsciiMap(art, ways: [("AB", ["highway": "track", "surface": "gravel", "smoothness": "good"]),
                                     ("ACDB", ["highway": "residential", "surface": "asphalt"])])
        let plan = try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        #expect(m.letters(of: plan.path) == "ACDB", "smoothest rode \(m.letters(of: plan.path)), \(plan.distance) m")
        #expect(abs(plan.distance - 2000) < 30)
    }

    @Test func smoothestTakesTheGentleSwitchbackOverTheSteepDrop() throws {
        // A–B: 75 m at −10 %. A–C–D–B: a 175 m switchback losing the same 7.5 m (−4.3 %).
        let drop = 7.5, switchback = 175.0
        let m = AsciiMap("""
        C--D
        |  |
        A--B
        """, ways: [("AB", ["highway": "residential", "surface": "asphalt"]),
                    ("ACDB", ["highway": "residential", "surface": "asphalt"])],
                     elevation: { x, y in
                         // y is metres north of the art's top row: A–B is the bottom row (y = −50).
                         if y < -49 { return 100 - drop * x / 75 }
                         let s = x < 1 ? (y + 50) : (x > 74 ? 125 + (0 - y) : 50 + x)  // along A–C–D–B
                         return 100 - drop * s / switchback
                     })
        let steep = try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        #expect(m.letters(of: steep.path) == "ACDB", "smoothest rode \(m.letters(of: steep.path)); zones \(steep.brakingZones)")
        #expect(!steep.brakingZones.contains { $0.level == .braking })
        // Without the braking-metre cost (the weights before issue 26) the steep drop wins: the
        // cost is what makes the choice.
        var old = ModeWeights.table(for: .smoothest)
        old.brakingSecondsPerMetre = 0; old.cautionSecondsPerMetre = 0
        let before = try ModeWeights.$override.withValue([.smoothest: old]) {
            try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        }
        #expect(m.letters(of: before.path) == "AB", "without the braking cost smoothest rode \(m.letters(of: before.path))")
        // The steep drop really is a braking stretch (the test would pass vacuously otherwise).
        let table = EdgeTable(map: m.map, knowledge: .empty)
        let ab = (0..<m.map.edgeCount).first { Double(m.map.edgeLength[$0]) < 80 }!
        #expect(max(table.brakingMetres(ab, reversed: false), table.brakingMetres(ab, reversed: true)) > 50)
    }

    @Test func brakingMetresCountShortSteepBitsToo() {
        // 100 m sampled every 10 m: 20 m at −13 % between flat stretches counts as braking-grade
        // metres even though no 50 m braking zone fits.
        var prof: [Float] = []
        var h: Float = 50
        for i in 0...10 { if i == 5 || i == 6 { h -= 1.3 }; prof.append(h) }
        let m = BrakingGrade.metres(profile: prof, length: 100)
        #expect(m.brakingFwd >= 10 && m.brakingBwd == 0)
        #expect(m.cautionBwd == 0)
        let flat = BrakingGrade.metres(profile: [Float](repeating: 3, count: 11), length: 100)
        #expect(flat.brakingFwd == 0 && flat.cautionFwd == 0)
    }
}
