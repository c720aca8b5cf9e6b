import Foundation
@testable import SkateCore
import SkateTestSupport
import Testing

/// Issue 30: the step lists of six real routes, written out whole in `Tests/Fixtures/steps-*.txt` so a
/// reader can check each instruction against the map (OpenStreetMap at the coordinates). Three on
/// the bundled Monaco map, three on Heidelberg (imported from `../shared/data` without a DEM;
/// skipped without it). A change that moves a step shows here as a readable diff;
/// `SKATEROUTE_RECORD_GOLDEN=1` writes the files anew from the lists as they are now.
@Suite(.serialized) struct GoldenStepsTests {
    struct Case {
        var name: String
        var from: Coordinate
        var to: Coordinate
        var mode: RideMode
    }

    /// "→ Turn right onto Rue Grimaldi — 140 m": the arrow, the instruction and the metres.
    static func lines(_ p: RoutePlan) -> [String] {
        p.steps.map { s in
            s.maneuver == .arrive ? "\(s.maneuver.arrow) \(s.instruction)" : "\(s.maneuver.arrow) \(s.instruction) — \(Int(s.context.distance.rounded())) m"
        }
    }

    static func goldenPath(_ set: String) -> String {
        TestData.projectRoot.appendingPathComponent("Tests/Fixtures/steps-\(set).txt").path
    }

    /// The cases' step lists as one text: "## name (mode)" then one line per step.
    func render(_ map: SkateMap, _ cases: [Case]) throws -> String {
        var out = ""
        let planner = Planner(map: map)
        for c in cases {
            let p = try planner.plan(from: c.from, to: c.to, mode: c.mode)
            out += "## \(c.name) (\(c.mode.rawValue))\n" + Self.lines(p).joined(separator: "\n") + "\n\n"
            // The voice of each step: walked exactly when it holds stairs; no advice to ride elsewhere.
            for s in p.steps where s.maneuver != .arrive {
                #expect(s.context.walk == (s.context.walkMetres > 0), "\(c.name): \(s.instruction)")
            }
            #expect(!PlanFormats.text(p, from: "a", to: "b").contains("instead"), "\(c.name)")
        }
        return out
    }

    func check(_ set: String, _ map: SkateMap, _ cases: [Case]) throws {
        let got = try render(map, cases)
        let path = Self.goldenPath(set)
        if ProcessInfo.processInfo.environment["SKATEROUTE_RECORD_GOLDEN"] == "1" {
            try got.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let want = try String(contentsOfFile: path, encoding: .utf8)
        #expect(got == want, "step lists differ from \(path); now:\n\(got)")
    }

    static let monaco: [Case] = [
        Case(name: "Place du Casino → Stade Louis II", from: Coordinate(lat: 43.7394, lon: 7.4282), to: Coordinate(lat: 43.7276, lon: 7.4155), mode: .smoothest),
        Case(name: "Jardin Exotique → Port Hercule", from: Coordinate(lat: 43.7313, lon: 7.4130), to: Coordinate(lat: 43.7350, lon: 7.4220), mode: .fastMildRoughness),
        Case(name: "Larvotto → Place d'Armes", from: Coordinate(lat: 43.7445, lon: 7.4330), to: Coordinate(lat: 43.7330, lon: 7.4190), mode: .chillFewCrossings),
    ]

    static let heidelberg: [Case] = [
        Case(name: "Bismarckplatz → Universitätsplatz", from: Coordinate(lat: 49.4093, lon: 8.6933), to: Coordinate(lat: 49.4106, lon: 8.7062), mode: .smoothest),
        Case(name: "Hauptbahnhof → Bismarckplatz", from: Coordinate(lat: 49.4037, lon: 8.6756), to: Coordinate(lat: 49.4093, lon: 8.6933), mode: .fastMildRoughness),
        Case(name: "Neuenheimer Feld → Alte Brücke", from: Coordinate(lat: 49.4167, lon: 8.6700), to: Coordinate(lat: 49.4135, lon: 8.7100), mode: .chillFewCrossings),
    ]

    @Test func monacoStepLists() throws {
        let m = try #require(try? MapFormat.load(path: TestData.bundledMonaco, copying: true), "Maps/monaco.srmap missing")
        try check("monaco", m, Self.monaco)
    }

    @Test(.enabled(if: TestData.available, TestData.skip)) func heidelbergStepLists() throws {
        let m = try #require(CrustyRuleProofTests.heidelberg)
        try check("heidelberg", m, Self.heidelberg)
    }
}
