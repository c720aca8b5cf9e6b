import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// Parses a loop length: "5km", "5 km", "2.5km", "800m" or a bare number of kilometres; metres.
func parseLoopLength(_ text: String) -> Double? {
    let t = text.trimmingWhitespace().lowercased()
    let (number, unit): (Substring, Double) =
        t.hasSuffix("km") ? (t.dropLast(2), 1000) : t.hasSuffix("m") ? (t.dropLast(1), 1) : (Substring(t), 1000)
    guard let v = Double(number.trimmingWhitespace()), v.isFinite, v > 0 else { return nil }
    return v * unit
}

/// `skateroute plan --loop LENGTH --from PLACE`: a round trip, printed in any plan format.
func runLoop(_ r: PlanRequest, length text: String, seed: UInt64) throws {
    let rideMode = try planMode(r.mode)
    guard let length = parseLoopLength(text) else {
        throw usageError("--loop '\(TerminalSafe.quoted(text, maxLength: 40))' is not a length (e.g. 5km, 800m)")
    }
    guard LoopRules.lengthRange.contains(length) else {
        throw usageError("--loop \(Int(length)) m is outside \(Int(LoopRules.lengthRange.lowerBound)) m … \(Int(LoopRules.lengthRange.upperBound / 1000)) km")
    }
    guard (0...5).contains(r.alternatives) else { throw usageError("--alternatives must be 0…5, got \(r.alternatives)") }
    if let problem = outOfRangePosition(r.from, option: "--from") { throw usageError(problem) }
    let map = try loadMap(r.map)
    let store = try openExistingStore(dataDir: r.dataDir, disabled: r.noStore, short: true)
    var knowledge = RoadKnowledge.empty
    var saved = SavedPlaceResolver.empty
    if let store {
        let date = try parseNow(r.now)
        do { knowledge = try store.loadKnowledge(for: map, now: date) } catch { throw fail("store \(store.dataDir.path): \(error)") }
        if let p = try? store.places(), !p.isEmpty { saved = SavedPlaceResolver(p, map: map) }
    }
    let start = try resolveAnyPlace(r.from, map: map, saved: saved, role: "start")
    let planner = Planner(map: map, knowledge: knowledge)
    let result: LoopResult
    do {
        result = try planner.loop(from: start.at, length: length, mode: rideMode, seed: seed, alternatives: r.alternatives)
    } catch let e as RoutingError {
        throw fail(e.description)
    }
    if let note = result.note { printError("skateroute: \(note)") }
    let end = PlanEnd(name: start.name, town: start.town, at: start.at, match: "loop", kind: start.kindWords)
    let ends = PlanEnds(from: end, to: end)
    let stamp = OutputStamp(attribution: map.metadata.attribution,
                            created: r.now.flatMap { ISO8601Time.parse($0) } ?? OutputStamp.currentTime())
    let output = try OutputFile(r.out)
    let plan = result.plan
    switch r.format {
    case .text:
        print("loop: \(result.quality.summary), seed \(result.seed)")
        print(TerminalSafe.cleanLines(PlanFormats.text(plan, from: start.name, to: start.name, stamp: stamp, ends: ends)), terminator: "")
    case .json: print(PlanFormats.json(plan, stamp: stamp, ends: ends))
    case .gpx: print(PlanFormats.gpx(plan, name: "loop from \(start.name)", stamp: stamp, ends: ends), terminator: "")
    case .geojson: print(PlanFormats.geojson(plan, stamp: stamp, ends: ends))
    }
    try output.commit()
}

/// `skateroute plan --from PLACE --to-run N`: to the top of descent N of `downhills` and down it.
func runToRun(_ r: PlanRequest, run n: Int, radius: String?) throws {
    let rideMode = try planMode(r.mode)
    if let problem = outOfRangePosition(r.from, option: "--from") { throw usageError(problem) }
    let found = try findDownhills(near: r.near ?? r.from, radius: radius, map: r.map, dataDir: r.dataDir, noStore: r.noStore)
    guard n >= 1, n <= found.runs.count else {
        throw usageError(found.runs.isEmpty ? "no descent near \(TerminalSafe.clean(found.center.name)) to plan to (see `skateroute downhills`)"
                         : "--to-run \(n): `downhills` lists runs 1…\(found.runs.count) near \(TerminalSafe.clean(found.center.name))")
    }
    let run = found.runs[n - 1]
    let start = r.near == nil ? found.center : try resolveAnyPlace(r.from, map: found.planner.map, saved: .empty, role: "start")
    let plan: RoutePlan
    do { plan = try found.planner.plan(from: start.at, toRun: run, mode: rideMode) } catch let e as RoutingError { throw fail(e.description) }
    let name = run.streets.first ?? "descent \(n)"
    let ends = PlanEnds(from: PlanEnd(name: start.name, town: start.town, at: start.at, match: "place", kind: start.kindWords),
                        to: PlanEnd(name: name, town: "", at: run.bottom, match: "run \(n)", kind: "descent"))
    let stamp = OutputStamp(attribution: found.planner.map.metadata.attribution,
                            created: r.now.flatMap { ISO8601Time.parse($0) } ?? OutputStamp.currentTime())
    let output = try OutputFile(r.out)
    switch r.format {
    case .text: print(TerminalSafe.cleanLines(PlanFormats.text(plan, from: start.name, to: name, stamp: stamp, ends: ends)), terminator: "")
    case .json: print(PlanFormats.json(plan, stamp: stamp, ends: ends))
    case .gpx: print(PlanFormats.gpx(plan, name: "\(start.name) → \(name)", stamp: stamp, ends: ends), terminator: "")
    case .geojson: print(PlanFormats.geojson(plan, stamp: stamp, ends: ends))
    }
    try output.commit()
}
