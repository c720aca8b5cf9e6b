import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// `skateroute downhills --near PLACE`: descents a skater enjoys, best first.
struct DownhillsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "downhills",
        abstract: "Rank the descents near a place a skater enjoys (long, steady −2 … −7 %, smooth, legal).",
        discussion: "Braking-grade stretches are never listed. Plan to run N with `skateroute plan --from PLACE --to-run N` (same --near and --radius)."
    )
    @Option(parsing: .unconditional, help: "Where you are: a place name or \"lat,lon\".") var near: String
    @Option(help: "Runs whose top lies within this distance (\"3km\", \"800m\"; default 3km).") var radius: String?
    @Flag(help: "Print a JSON document.") var json = false
    @OptionGroup var mapOption: MapOption
    @Option(help: "Data folder of the hazard and surface store (default $XDG_DATA_HOME/skateroute).") var dataDir: String?
    @Flag(help: "Ignore the hazard and surface store (map tags only).") var noStore = false

    func run() throws {
        let found = try findDownhills(near: near, radius: radius, map: mapOption.map, dataDir: dataDir, noStore: noStore)
        let runs = found.runs
        if json {
            let items: [JSONText] = runs.enumerated().map { i, r in
                .object([
                    "run": .int(Int64(i + 1)), "length_m": JSONText.rounded(r.length, 1), "drop_m": JSONText.rounded(r.drop, 1),
                    "mean_grade_pct": JSONText.rounded(r.meanGradePct, 2), "steepest_grade_pct": JSONText.rounded(r.steepestGradePct, 2),
                    "surface": .string(r.surface), "roughness": .string(r.roughness.name), "crossings": .int(Int64(r.crossings)),
                    "caution_m": JSONText.rounded(r.cautionMetres, 1), "streets": .array(r.streets.map { .string($0) }), "name": .string(r.displayName),
                    "top": .array([JSONText.rounded(r.top.lat, 7), JSONText.rounded(r.top.lon, 7)]),
                    "bottom": .array([JSONText.rounded(r.bottom.lat, 7), JSONText.rounded(r.bottom.lon, 7)]),
                    "distance_m": JSONText.rounded(Geo.distance(found.center.at, r.top), 0),
                ])
            }
            CLIParse.emit(DocumentSchema.document("downhills", [
                "near": .string(found.center.name), "radius_m": JSONText.rounded(found.radius, 0), "runs": .array(items),
            ]).text(pretty: true))
            return
        }
        if runs.isEmpty {
            CLIParse.emit("no descent between \(Int(-DownhillRules.gentlestMeanPct)) and \(Int(-DownhillRules.steepestMeanPct)) % downhill, smooth and legal, within \(FixedDecimal.string(found.radius / 1000, decimals: 1)) km of \(TerminalSafe.clean(found.center.name))")
            return
        }
        for (i, r) in runs.enumerated() {
            let name = r.streets.isEmpty ? (r.unnamedDescription.isEmpty ? "unnamed ways" : r.unnamedDescription) : r.streets.prefix(3).joined(separator: " → ")
            CLIParse.emit(TerminalSafe.cleanLines("\(i + 1). \(name): \(Int(r.length.rounded())) m, drop \(Int(r.drop.rounded())) m, mean \(FixedDecimal.string(r.meanGradePct, decimals: 1)) %, "
                + "steepest \(FixedDecimal.string(r.steepestGradePct, decimals: 1)) %, \(r.surface) (\(r.roughness.name)), "
                + "\(r.crossings) crossing\(r.crossings == 1 ? "" : "s"), top \(Int(Geo.distance(found.center.at, r.top).rounded())) m away"))
        }
    }
}

/// The runs `downhills` lists for a place and radius (also what `plan --to-run N` picks from).
func findDownhills(near: String, radius: String?, map spec: String?, dataDir: String?, noStore: Bool) throws -> (runs: [DownhillRun], center: PlaceCandidate, radius: Double, planner: Planner) {
    var r = DownhillRules.defaultRadius
    if let text = radius {
        guard let v = parseLoopLength(text), v >= 100, v <= 50_000 else {
            throw usageError("--radius '\(TerminalSafe.quoted(text, maxLength: 40))' is not a distance of 100 m … 50 km (e.g. 3km)")
        }
        r = v
    }
    if let problem = outOfRangePosition(near, option: "--near") { throw usageError(problem) }
    let map = try loadMap(spec)
    let knowledge = try loadKnowledge(map: map, dataDir: dataDir, disabled: noStore, now: nil)
    let center = try resolveAnyPlace(near, map: map, saved: .empty, role: "--near")
    let planner = Planner(map: map, knowledge: knowledge)
    if !map.metadata.hasElevation { throw fail("map '\(map.metadata.name)' has no elevation: re-run `skateroute import` with --dem-dir to find descents") }
    return (planner.downhills(near: center.at, radius: r), center, r, planner)
}
