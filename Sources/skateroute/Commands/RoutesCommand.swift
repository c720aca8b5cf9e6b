import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// `skateroute routes …`: saved routes (offline route packs) with the map they were planned on.
struct RoutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "Save planned routes for offline use; list, show, remove and export them.",
        discussion: """
        A saved route keeps the whole plan (geometry, steps and their attributes, zones, grade \
        summary), the map's identity and a checksum. Showing it on a changed map re-plans it and \
        says what changed; a saved route whose checksum fails is refused.
        """,
        subcommands: [RoutesSaveCommand.self, RoutesListCommand.self, RoutesShowCommand.self,
                      RoutesRemoveCommand.self, RoutesExportCommand.self],
        defaultSubcommand: RoutesListCommand.self
    )
}

/// The parts of a plan JSON a saved route needs.
struct SavedPlanFacts {
    var mode: RideMode
    var geometry: [Coordinate]
    var distance: Double
    var duration: Double
    var score: Double
    var climb: Double
    var descent: Double
    /// (instruction, street, metres) per step.
    var steps: [(instruction: String, street: String, distance: Double)]
    var spots: [String]

    /// Largest plan JSON read (bytes): a city-crossing plan is ~1 MB.
    static let maxBytes = 64 << 20

    /// A saved plan JSON as a document: plans saved before the `schema` field get it added after
    /// the opening brace (the stored text and its checksum stay as they are).
    static func withSchema(_ text: String) -> String {
        let obj = JSONNode.parse(text)
        guard obj?[DocumentSchema.key] == nil, let brace = text.firstIndex(of: "{") else { return text }
        let field = "\n  \"\(DocumentSchema.key)\" : \"\(DocumentSchema.name(PlanFormats.jsonSchemaKind))\","
        return String(text[...brace]) + field + String(text[text.index(after: brace)...])
    }

    /// An array whose elements are all strings (`as? [String]`).
    static func strings(_ node: JSONNode?) -> [String]? {
        guard let a = node?.array else { return nil }
        let out = a.compactMap(\.string)
        return out.count == a.count ? out : nil
    }

    /// Parses `skateroute plan --format json` output, or nil when it is not one.
    static func parse(_ text: String) -> SavedPlanFacts? {
        guard let obj = JSONNode.parse(text),
              let mode = obj["mode"]?.string.flatMap(RideMode.init(rawValue:)),
              let geo = obj["geometry"]?.doubleRows, geo.count >= 2, geo.count <= PlanDocumentLimit.maxPoints, geo.allSatisfy({ $0.count >= 2 }),
              let steps = obj["steps"]?.array, !steps.isEmpty, steps.allSatisfy({ $0.object != nil }),
              let distance = obj["distance_m"]?.double else { return nil }
        let gs = obj["grade_summary"]
        let coords = geo.map { Coordinate(lat: $0[1], lon: $0[0]) }
        guard coords.allSatisfy({ abs($0.lat) <= 90 && abs($0.lon) <= 180 }) else { return nil }
        let facts = SavedPlanFacts(mode: mode, geometry: coords, distance: distance,
                                   duration: obj["duration_s"]?.double ?? 0, score: obj["score"]?.double ?? 0,
                                   climb: gs?["climb_m"]?.double ?? 0, descent: gs?["descent_m"]?.double ?? 0,
                                   steps: steps.map { ($0["instruction"]?.string ?? "", $0["street"]?.string ?? "", $0["distance_m"]?.double ?? 0) },
                                   spots: Self.strings(obj["spots"]) ?? [])
        // Every figure is formatted later: one no plan can hold (distance_m 1e19 trapped
        // `routes save` after the row was committed, and every later `routes list`) makes the
        // document "not a plan" instead.
        return facts.figuresArePlausible ? facts : nil
    }

    /// Scores are 0–100; anything past this is damage, not a plan.
    static let maxScoreMagnitude = 1.0e6

    /// True when every figure lies in `PlausibleRange`.
    var figuresArePlausible: Bool {
        PlausibleRange.holds(distance, PlausibleRange.distanceM) && PlausibleRange.holds(duration, PlausibleRange.durationS)
            && PlausibleRange.holds(climb, PlausibleRange.climbM) && PlausibleRange.holds(descent, PlausibleRange.climbM)
            && score.isFinite && abs(score) <= Self.maxScoreMagnitude
            && steps.allSatisfy { PlausibleRange.holds($0.distance, PlausibleRange.distanceM) }
    }

    /// Farthest a saved geometry point may lie from the map's ways (metres) for the plan to count
    /// as made on this map: plan points lie on edges (0 m, 6-decimal rounding ≈ 0.1 m); 25 m
    /// allows a re-import's small redraws, a city away does not.
    static let onMapTolerance = 25.0

    /// The first geometry point (index) not on `map`, or nil when all are.
    func offMapPoint(_ map: SkateMap) -> Int? {
        geometry.indices.first { map.nearestEdge(to: geometry[$0], maxDistance: Self.onMapTolerance) == nil }
    }

    /// One line comparing this (saved) plan with a new one.
    func changes(to p: RoutePlan) -> String {
        func signed(_ x: Double, _ unit: String) -> String { (x >= 0 ? "+" : "") + "\(Int(x.rounded())) \(unit)" }
        let oldStreets = Set(steps.map(\.street).filter { !$0.isEmpty })
        let newStreets = Set(p.steps.map(\.street).filter { !$0.isEmpty })
        let n = { (m: Double) in UnitFormatter.lengthNumber(m) }, unit = UnitFormatter.lengthUnit()
        var parts = ["distance \(n(distance)) → \(n(p.distance)) \(unit) (\(signed(UnitFormatter.lengthValue(p.distance - distance), unit)))",
                     "time \(Int((duration / 60).rounded())) → \(Int((p.duration / 60).rounded())) min",
                     "score \(Int(score.rounded())) → \(Int(p.score.rounded()))",
                     "climb \(n(climb)) → \(n(p.gradeSummary.climbM)) \(unit)",
                     "steps \(steps.count) → \(p.steps.count)"]
        let gone = oldStreets.subtracting(newStreets).sorted(), added = newStreets.subtracting(oldStreets).sorted()
        if !gone.isEmpty { parts.append("no longer on " + gone.prefix(3).joined(separator: ", ") + (gone.count > 3 ? "…" : "")) }
        if !added.isEmpty { parts.append("now on " + added.prefix(3).joined(separator: ", ") + (added.count > 3 ? "…" : "")) }
        if distance == p.distance && gone.isEmpty && added.isEmpty { parts = ["same line"] }
        return parts.joined(separator: "; ")
    }
}

struct RoutesSaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save", abstract: "Save a plan under a name.",
        discussion: "Give a plan as JSON (`skateroute plan … --format json > p.json`, then --plan p.json, or --plan - for stdin) or plan it here with --from/--to.")

    @Argument(help: "The route's name (1–\(RiderName.maxLength) characters, unique).") var name: String
    @Option(help: "A plan JSON file (`plan --format json`), or - for standard input.") var plan: String?
    @Option(parsing: .unconditional, help: "Plan here: start (a place, saved place or \"lat,lon\").") var from: String?
    @Option(parsing: .unconditional, help: "Plan here: destination.") var to: String?
    @Option(help: "Plan here: ride mode.") var mode: String = RideMode.smoothest.rawValue
    @OptionGroup var mapOption: MapOption
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let map = try mapOption.load()
        let store = try storeOptions.open()
        let now = try storeOptions.instant()
        let identity = MapIdentity.of(path: try mapOption.path, map: map)
        let json: String, fromName: String, toName: String
        switch (plan, from, to) {
        case (let file?, nil, nil):
            let text = try readPlanText(file)
            guard let facts = SavedPlanFacts.parse(text) else {
                throw fail("\(file == "-" ? "standard input" : TerminalSafe.clean(file)) is not a plan (`skateroute plan --format json` output)")
            }
            if let i = facts.offMapPoint(map) {
                throw fail("the plan is not on map '\(TerminalSafe.clean(map.metadata.name))': point \(i) (\(facts.geometry[i])) is more than \(Int(SavedPlanFacts.onMapTolerance)) m from its ways — give the plan's map with --map")
            }
            json = text.trimmingWhitespaceAndNewlines()
            fromName = facts.geometry.first!.description
            toName = facts.geometry.last!.description
        case (nil, let f?, let t?):
            guard let m = RideMode(rawValue: mode) else {
                throw fail(unknownModeMessage(String(mode.prefix(40))))
            }
            let saved = SavedPlaceResolver(try CLIParse.store { try store.places() }, map: map)
            let a = try resolveAnyPlace(f, map: map, saved: saved, role: "start")
            let b = try resolveAnyPlace(t, map: map, saved: saved, role: "destination")
            let knowledge = (try? store.loadKnowledge(for: map, now: now)) ?? .empty
            let p: RoutePlan
            do { p = try Planner(map: map, knowledge: knowledge).plan(from: a.at, to: b.at, mode: m) } catch let e as RoutingError {
                throw fail(e.description)
            }
            json = PlanFormats.json(p, stamp: OutputStamp(attribution: map.metadata.attribution, created: now.timeIntervalSince1970))
            fromName = a.name
            toName = b.name
        default:
            throw fail("give either --plan FILE (plan JSON) or both --from and --to")
        }
        let facts = SavedPlanFacts.parse(json)!
        let route = SavedRoute(name: name, mode: facts.mode.rawValue, fromName: fromName, toName: toName,
                               from: facts.geometry.first!, to: facts.geometry.last!, mapIdentity: identity,
                               planJSON: json, createdAt: now)
        let saved = try CLIParse.store { try store.saveRoute(route) }
        CLIParse.emit("saved route '\(saved.name)': \(TerminalSafe.clean(saved.fromName)) → \(TerminalSafe.clean(saved.toName)) [\(saved.mode)], "
                      + "\(UnitFormatter.length(facts.distance)), \(facts.steps.count) steps, map \(TerminalSafe.clean(identity))")
    }

    func readPlanText(_ file: String) throws -> String {
        let data: Data?
        if file == "-" {
            data = StandardStreams.readInput(upTo: SavedPlanFacts.maxBytes + 1).map { Data($0) }
        } else {
            // A regular file within the limit, checked before reading (a FIFO would block, a huge file fill memory).
            do {
                let size = try InputPath.regularFileSize(file)
                if size > SavedPlanFacts.maxBytes { throw fail("plan file '\(TerminalSafe.clean(file))' is larger than \(SavedPlanFacts.maxBytes >> 20) MB") }
            } catch let e as InputPathError {
                throw fail(e.description)
            }
            data = FileManager.default.contents(atPath: file)
        }
        guard let data else { throw fail("cannot read plan file '\(TerminalSafe.clean(file))'") }
        guard data.count <= SavedPlanFacts.maxBytes else { throw fail("plan file '\(TerminalSafe.clean(file))' is larger than \(SavedPlanFacts.maxBytes >> 20) MB") }
        if let problem = PlanDocumentLimit.problem(data) { throw fail("plan file '\(TerminalSafe.clean(file))' has \(problem)") }
        return String(decoding: data, as: UTF8.self)
    }
}

struct RoutesListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List saved routes.")
    @Flag(help: "Print JSON (keys sorted).") var json = false
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.open()
        let list = try CLIParse.store { try store.savedRoutes() }
        if json {
            CLIParse.emit(DocumentSchema.document("routes", ["routes": .array(list.map { r, ok in
                let f = SavedPlanFacts.parse(r.planJSON)
                return .object(["name": .string(r.name), "mode": .string(r.mode), "from": .string(r.fromName), "to": .string(r.toName),
                                "map": .string(r.mapIdentity), "intact": .bool(ok), "distance_m": f.map { .rounded($0.distance, 1) } ?? .null])
            })]).text(pretty: true))
            return
        }
        if list.isEmpty { CLIParse.emit("no saved routes (save one with `skateroute routes save NAME --from A --to B`)"); return }
        for (r, ok) in list {
            let dist = SavedPlanFacts.parse(r.planJSON).map { UnitFormatter.length($0.distance) } ?? "?"
            CLIParse.emit("\(TerminalSafe.clean(r.name))  \(TerminalSafe.clean(r.fromName)) → \(TerminalSafe.clean(r.toName))  [\(TerminalSafe.clean(r.mode))]  \(dist)"
                          + (ok ? "" : "  CORRUPTED (checksum mismatch)"))
        }
    }
}

/// A saved route checked against the map at hand: the saved plan when the map is the same, a
/// fresh plan (and what changed) when it is not.
struct CheckedRoute {
    var route: SavedRoute
    var facts: SavedPlanFacts
    /// Nil when the map is the one the route was saved on.
    var replanned: RoutePlan?
    var change: String?
    /// The stamp for outputs made now: the attribution of the map at hand.
    var stamp: OutputStamp?

    /// The saved route `name` from the store `storeOptions` opens, checked against the map at hand.
    static func load(_ name: String, storeOptions: StoreOptions, mapOption: MapOption) throws -> CheckedRoute {
        let store = try storeOptions.open()
        let route = try CLIParse.store { try store.savedRoute(named: name) }
        guard let facts = SavedPlanFacts.parse(route.planJSON), let mode = RideMode(rawValue: route.mode) else {
            throw fail("saved route '\(TerminalSafe.clean(route.name))' holds no readable plan: remove it with `routes rm`")
        }
        let map = try mapOption.load()
        let identity = MapIdentity.of(path: try mapOption.path, map: map)
        let stamp = OutputStamp(attribution: map.metadata.attribution, created: OutputStamp.currentTime())
        guard identity != route.mapIdentity else { return CheckedRoute(route: route, facts: facts, stamp: stamp) }
        // Another map: only re-plan when both ends are on it.
        for end in [route.from, route.to] where map.nearestEdge(to: end, maxDistance: SavedPlanFacts.onMapTolerance) == nil {
            throw fail("saved route '\(TerminalSafe.clean(route.name))' was planned on map \(TerminalSafe.clean(route.mapIdentity)); its end \(end) is not on map \(TerminalSafe.clean(identity))")
        }
        let p: RoutePlan
        do { p = try Planner(map: map).plan(from: route.from, to: route.to, mode: mode) } catch let e as RoutingError {
            throw fail("saved route '\(TerminalSafe.clean(route.name))' cannot be re-planned on the changed map: \(e.description)")
        }
        let change = "map changed (\(TerminalSafe.clean(route.mapIdentity)) → \(TerminalSafe.clean(identity))), re-planned: " + facts.changes(to: p)
        return CheckedRoute(route: route, facts: facts, replanned: p, change: change, stamp: stamp)
    }
}

struct RoutesShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a saved route (re-planned if the map changed).")
    @Argument(help: "The route's name.") var name: String
    @Flag(help: "Print the plan JSON (the saved one, or the re-planned one on a changed map).") var json = false
    @OptionGroup var mapOption: MapOption
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let c = try CheckedRoute.load(name, storeOptions: storeOptions, mapOption: mapOption)
        if let change = c.change { printError("skateroute: route '\(TerminalSafe.clean(c.route.name))': \(change)") }
        if json {
            CLIParse.emit(c.replanned.map { PlanFormats.json($0, stamp: c.stamp) } ?? SavedPlanFacts.withSchema(c.route.planJSON))
            return
        }
        if let p = c.replanned {
            print(TerminalSafe.cleanLines(PlanFormats.text(p, from: c.route.fromName, to: c.route.toName, stamp: c.stamp)), terminator: "")
            return
        }
        let f = c.facts
        CLIParse.emit("\(TerminalSafe.clean(c.route.name)): \(TerminalSafe.clean(c.route.fromName)) → \(TerminalSafe.clean(c.route.toName))  [\(f.mode.rawValue)]")
        for (i, s) in f.steps.enumerated() {
            CLIParse.emit(FixedDecimal.padLeft(String(i + 1), 3) + "  \(TerminalSafe.clean(s.instruction)) — \(UnitFormatter.length(s.distance))")
        }
        let dist = UnitSystem.active == .metric ? FixedDecimal.string(f.distance / 1000, decimals: 2) + " km" : UnitFormatter.distance(f.distance, decimals: 2)
        CLIParse.emit("\(dist), \(Int((f.duration / 60).rounded())) min, score \(Int(f.score.rounded())), "
                      + "climb \(UnitFormatter.length(f.climb)), descent \(UnitFormatter.length(f.descent)); map \(TerminalSafe.clean(c.route.mapIdentity)) (unchanged)")
        if !f.spots.isEmpty { CLIParse.emit("spot: \(TerminalSafe.clean(f.spots.joined(separator: ", ")))") }
        if let s = c.stamp { CLIParse.emit(TerminalSafe.clean("attribution: \(s.attribution)")) }
    }
}

struct RoutesRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a saved route.")
    @Argument(help: "The route's name.") var name: String
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.open()
        try CLIParse.store { try store.removeRoute(named: name) }
        CLIParse.emit("removed route '\(TerminalSafe.clean(RiderName.clean(name)))'")
    }
}

struct RoutesExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Export a saved route (GPX).")
    @Argument(help: "The route's name.") var name: String
    @Flag(help: "GPX 1.1 (the only format; the flag documents it).") var gpx = false
    @OptionGroup var mapOption: MapOption
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let c = try CheckedRoute.load(name, storeOptions: storeOptions, mapOption: mapOption)
        let title = "\(c.route.fromName) → \(c.route.toName)"
        if let p = c.replanned {
            printError("skateroute: route '\(TerminalSafe.clean(c.route.name))': \(c.change ?? "")")
            print(PlanFormats.gpx(p, name: title, stamp: c.stamp), terminator: "")
            return
        }
        print(Self.gpx(c.facts, name: c.route.name, title: title, stamp: c.stamp), terminator: "")
    }

    /// GPX 1.1 of the saved geometry: one track, with the route's name and its spots in the metadata.
    static func gpx(_ f: SavedPlanFacts, name: String, title: String, stamp: OutputStamp? = nil) -> String {
        func esc(_ s: String) -> String {
            var o = ""
            for ch in TerminalSafe.clean(s) {
                switch ch {
                case "&": o += "&amp;"
                case "<": o += "&lt;"
                case ">": o += "&gt;"
                case "\"": o += "&quot;"
                default: o.append(ch)
                }
            }
            return o
        }
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        s += "<gpx version=\"1.1\" creator=\"SkateRoute\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
        let desc = "\(title) [\(f.mode.rawValue)]" + (f.spots.isEmpty ? "" : "; spot: " + f.spots.joined(separator: ", "))
        s += "  <metadata><name>\(esc(name))</name><desc>\(esc(desc))</desc>"
        if let stamp {
            s += "<copyright author=\"\(esc(stamp.attribution))\">"
                + (stamp.attribution.contains("ODbL") ? "<license>\(PlanFormats.odblLicenseURL)</license>" : "") + "</copyright>"
                + "<time>\(stamp.createdISO)</time>"
        }
        s += "</metadata>\n"
        s += "  <trk>\n    <name>\(esc(name))</name>\n    <trkseg>\n"
        for c in f.geometry {
            s += "      <trkpt lat=\"\(FixedDecimal.string(c.lat, decimals: 7))\" lon=\"\(FixedDecimal.string(c.lon, decimals: 7))\"></trkpt>\n"
        }
        s += "    </trkseg>\n  </trk>\n</gpx>\n"
        return s
    }
}
