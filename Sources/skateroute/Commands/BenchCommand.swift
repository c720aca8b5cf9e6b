import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateImport
import SkateRide
import SkateTUI

/// `skateroute bench`: speed figures for the closing notes (run it from a release build).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Print speed figures: import, map load, routing (use a release build).",
        discussion: "swift build -c release && .build/release/skateroute bench --data ../shared/data"
    )

    @Option(help: "Folder with the real data (maps/, dem/). Default ../shared/data when present.") var data: String?
    @Option(help: "Random origin/destination pairs per map for the routing figures.") var pairs: Int = 100
    @Option(help: "Seed for the random pairs.") var seed: UInt64 = 42
    @Option(help: "Repetitions for import and load timings (the median is printed).") var repeats: Int = 5
    @Flag(help: "Skip the Heidelberg figures (slow in debug builds).") var noHeidelberg = false
    @Flag(help: "Only the terrain figures on the bundled map (braking zones on 30 seeded pairs).") var terrainOnly = false
    @Option(help: ArgumentHelp("With --terrain-only: the map to draw the pairs on instead of the bundled one.", valueName: "srmap")) var terrainMap: String?
    @Option(help: "Seeded Monaco pairs for the legal-lines figures (0 = skip).") var legalPairs: Int = 30
    @Option(help: "Seed for the legal-lines pairs.") var legalSeed: UInt64 = 12
    @Flag(help: "Print only the legal-lines figures.") var legalOnly = false
    @Flag(help: "List each legal-lines route that walks stairs or uses a forbidden way.") var legalVerbose = false
    @Option(help: "Alternating whole-process runs of `skateroute plan` and Debian's routino-router (foot, bicycle) on 3 Monaco and 3 Heidelberg pairs (0 = skip).") var peerRuns: Int = 21
    @Flag(help: "Also time the routing figures in the old order (rule-bound search first, no crusty-rule proof).") var beforeAfter = false
    @Flag(help: "Also time the routing figures with the old per-node labels (inexact turn costs; the before figures of issue 30, see Router.edgeLabels).") var nodeLabels = false
    @Option(help: "Seeded end pairs per mode for the exactness check against a plain Dijkstra (0 = skip).") var exactPairs: Int = 20
    @Flag(help: "Only the peer comparison and the routing figures (skip legal, terrain, TUI, ride figures).") var routingOnly = false
    @Flag(help: "Only the TUI frame figures on the bundled map (browse, preview, ride north-up and heading-up at 200x60).") var tuiOnly = false
    @Option(help: ArgumentHelp("With --tui-only: time this map instead of the bundled one (e.g. a region from --scale --write-region).", valueName: "path")) var tuiMap: String?
    @Flag(help: "Import the maps it times as `import --compact` does (one landmark table shared by all modes).") var compact = false
    @Option(help: ArgumentHelp("Import the maps it times with this landmark layout, as `import --landmarks` does.", valueName: "layout")) var landmarks: String?
    @Flag(help: "Import the maps it times in first-seen order instead of along a Hilbert curve (the numbering before issue 16's memory round), to compare.") var firstSeenOrder = false

    @Flag(help: "Only the braking trade-off (issue 26): braking, caution and crusty metres, distance and climb on 30 seeded Monaco and Heidelberg pairs for several smoothest braking weights, beside Routino foot and bicycle.") var braking = false
    @Option(help: ArgumentHelp("Smoothest braking weights (effort s per braking-grade metre) for --braking, comma-separated; \"b:c\" also sets the caution weight c (s per caution-grade metre; default the table's share of b).", valueName: "list")) var brakingWeights: String = "0,0.5,1,2,4,8"
    @Option(help: ArgumentHelp("With --braking: write <name>-edges.tsv per map (way id, metres, roughness class, source) into this folder for scripts/surface-crosscheck.py.", valueName: "dir")) var surfaceAudit: String?
    @Option(help: ArgumentHelp("With --braking: smoothest's steep-aware choice with other values (SteepLineRule), each share[:caution share]/factors[c caution ratio]/rounds[/too-fast-road share[/surface guard 0|1]] (factors joined by +, none as -; cR: the searches' caution factor R × their braking factor; later fields default to the table's), separated by ;, e.g. \"1/4+16/3/0;2/4/2;2:6.67/4c3.33/4\".", valueName: "list")) var steepVariants: String?
    @Option(help: ArgumentHelp("With --braking-bounds: also pick each pair's candidate of least braking + μ·distance at these fixed μ (braking metres per metre), comma-separated, e.g. the μ fitted on another seed.", valueName: "list")) var brakingMu: String?
    @Flag(help: "With --braking: each pair's braking + caution, crusty metres and distance for Routino bicycle and every smoothest line (weights and steep variants), with the pair's ends.") var brakingPerPair = false
    @Flag(help: "With --braking-bounds: only the exact bound on the graph (least braking over every legal line with no more crusty or stairs metres than smoothest's line, within 1.3× Routino bicycle's distance), without the candidate sweeps.") var brakingExactOnly = false
    @Flag(help: "With --braking: why smoothest still brakes (braking at the ends, the router's own count, min-braking searches with no detour cap and within 1.3× Routino bicycle's distance).") var brakingBounds = false
    @Option(help: ArgumentHelp("A Monaco .srmap for --braking (default: the bundled map), e.g. an older build to compare.", valueName: "path")) var monacoMap: String?
    @Option(help: ArgumentHelp("A Heidelberg .srmap (e.g. imported with the DEM) for --braking and the routing figures (default: imported now from --data, without the DEM for the routing figures).", valueName: "path")) var heidelbergMap: String?
    @Flag(help: "Time the routing figures in the process's CPU time (all threads) instead of wall time: steadier on a loaded machine, where wall time mostly measures waiting for a core.") var cpuTime = false
    @Flag(help: "With --heidelberg-map: only that map's routing figures (no imports, no Monaco), for before/after runs on one pre-imported map.") var heidelbergOnly = false

    @Flag(help: "Only the explore figures (issue 32): loop quality and time on --loop-starts seeded starts × 2, 5, 10 km, and descents near ten places.") var loops = false
    @Option(help: "Seeded starts for --loops.") var loopStarts: Int = 30
    @Option(help: ArgumentHelp("Only the region-scale figures (issue 31): for each K, K×K copies of Heidelberg joined into one region, imported by a child process, routed (docs/region-scale.md).", valueName: "K,…")) var scale: String?
    @Option(help: ArgumentHelp("With --scale K (one K): write that region as an .osm.pbf to this file and stop.", valueName: "file")) var writeRegion: String?
    @Flag(help: "With --scale: one JSON object per K instead of a table line.") var json = false
    @Option(help: ArgumentHelp("With --scale K: route on this region, already imported, instead of generating and importing one (route figures by mode and trip length, the slowest plans, whole-process plans; --cpu-time to time in CPU).", valueName: "srmap")) var scaleMap: String?

    func run() throws {
        if braking { try runBraking(); return }
        if let scale { try runScale(scale); return }
        if loops {
            LoopBenchmark(map: try MapFormat.load(path: BundledMaps.defaultMapPath()), starts: max(1, loopStarts), seed: seed, mode: .smoothest).run()
            return
        }
        let layout = try ImportCommand.layout(compact: compact, landmarks: landmarks)
        #if DEBUG
        print("note: this is a debug build; figures are only meaningful from `swift build -c release`")
        #endif
        if tuiOnly {
            let clock = ContinuousClock()
            var loaded: SkateMap?
            let load = clock.measure { loaded = try? MapFormat.load(path: tuiMap ?? BundledMaps.defaultMapPath()) }
            guard let m = loaded else { throw ValidationError("cannot read \(tuiMap ?? "the bundled map")") }
            print(String(printf: "tui map load %.1f ms (%d edges)", TUIBenchmark.seconds(load) * 1000, m.edgeCount))
            Self.printTUIFigures(map: m, name: tuiMap == nil ? "Monaco (bundled)" : m.metadata.name)
            return
        }
        if terrainOnly {
            let path = terrainMap ?? BundledMaps.defaultMapPath()
            TerrainBenchmark(map: try MapFormat.load(path: path), seed: seed).run(name: terrainMap == nil ? "Monaco (bundled)" : path)
            return
        }
        if legalPairs > 0 && !routingOnly {
            let m = try MapFormat.load(path: BundledMaps.defaultMapPath())
            LegalityBenchmark(map: m, pairs: legalPairs, seed: legalSeed, verbose: legalVerbose).run()
            if legalOnly { return }
        }
        let dataDir = data ?? "../shared/data"
        let monacoPBF = dataDir + "/maps/monaco-geofabrik-2026/monaco-latest.osm.pbf"
        let monacoDEM = dataDir + "/dem/N43E007-monaco/N43E007.pyhgtmap.hgt"
        let heidelbergPBF = dataDir + "/maps/heidelberg-ors-2024/heidelberg.test.pbf"
        // Heidelberg is timed with its SRTM heights, as a rider imports it: a flat map hides the
        // steep-line searches smoothest runs on a hilly city (issue 30's p99 is per mode).
        let heidelbergDEM = Self.heidelbergDEM(dataDir)
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("skateroute-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }

        if heidelbergOnly && heidelbergMap == nil { throw ValidationError("--heidelberg-only needs --heidelberg-map") }
        var maps: [(String, String)] = heidelbergOnly ? [] : [("Monaco (bundled)", BundledMaps.defaultMapPath())]
        if FileManager.default.fileExists(atPath: monacoPBF) {
            var sets: [(String, String, [String])] = heidelbergOnly ? [] : [("Monaco", monacoPBF, [monacoDEM])]
            // A given Heidelberg map (`--heidelberg-map`, e.g. imported with the DEM) is routed as it is.
            if let heidelbergMap, !noHeidelberg { maps.append(("Heidelberg", heidelbergMap)) }
            else if !noHeidelberg && FileManager.default.fileExists(atPath: heidelbergPBF) { sets.append(("Heidelberg", heidelbergPBF, heidelbergDEM)) }
            for (name, osm, dem) in sets {
                let out = tmp.appendingPathComponent("\(name).srmap").path
                var times: [Double] = [], elevationTimes: [Double] = []
                var last: SkateMap?
                for _ in 0..<max(1, repeats) {
                    let t0 = Self.now()
                    let (m, st) = try MapImporter.compile(osmPath: osm, demPaths: dem, options: ImportOptions(name: name, spatialOrder: !firstSeenOrder))
                    elevationTimes.append(st.elevationSeconds)
                    try MapFormat.write(m, to: out, landmarks: layout)
                    times.append(Self.now() - t0)
                    last = m
                }
                let bytes = (try? InputPath.regularFileSize(out)) ?? 0
                print(String(printf: "import %@%@: median %.3f s (min %.3f) — %d nodes, %d edges, %.2f MB; of which DEM sampling + terrain conditioning %.3f s", name, layout == .importDefault ? "" : " (landmarks \(layout))", Self.median(times), times.min() ?? 0, last?.nodeCount ?? 0, last?.edgeCount ?? 0, Double(bytes) / 1e6, Self.median(elevationTimes)))
                if name != "Monaco" { maps.append((name, out)) }
            }
        } else {
            print("(no \(dataDir): import figures skipped)")
        }
        if peerRuns > 0 && FileManager.default.fileExists(atPath: monacoPBF) {
            let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
            var sets = heidelbergOnly ? [] : [PeerBenchmark.MapSet(name: "Monaco", pbf: monacoPBF, srmap: BundledMaps.defaultMapPath(), pairs: PeerBenchmark.monacoPairs)]
            if let h = maps.first(where: { $0.0 == "Heidelberg" }) {
                sets.append(.init(name: "Heidelberg", pbf: heidelbergPBF, srmap: h.1, pairs: PeerBenchmark.heidelbergPairs))
            }
            PeerBenchmark(runs: peerRuns, selfPath: me).run(tmp: tmp, sets: sets)
        }
        for (name, path) in maps {
            var loads: [Double] = []
            var map: SkateMap?
            for _ in 0..<max(3, repeats) {
                let t0 = Self.now()
                map = try MapFormat.load(path: path)
                loads.append(Self.now() - t0)
            }
            guard let m = map else { continue }
            print(String(printf: "load %@: median %.2f ms (min %.2f)", name, Self.median(loads) * 1000, (loads.min() ?? 0) * 1000))
            if routingOnly { try routeFigures(name: name, map: m); continue }
            let ts = Self.now()
            let search = PlaceSearch(map: m)
            let tIndex = Self.now() - ts
            var tq: [Double] = []
            for q in ["stade louis ii", "casino", "jardin exotique", "port", "zzqxv"] {
                let t = Self.now(); _ = search.resolve(q); tq.append(Self.now() - t)
            }
            if name.hasPrefix("Monaco") { TerrainBenchmark(map: m, seed: seed).run(name: name) }
            print(String(printf: "place search %@: index %.2f ms (%d names), query median %.2f ms", name, tIndex * 1000, search.candidates.count, Self.median(tq) * 1000))
            try routeFigures(name: name, map: m)
            if name.hasPrefix("Monaco") {
                Self.printTUIFigures(map: m, name: name)
                print("ride replay \(name): " + RideSession.benchmarkReplay(map: m).text)
                let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
                // Rides/ sits beside Maps/ (the bundled map's folder).
                let root = PathText.deletingLastComponent(PathText.deletingLastComponent(BundledMaps.defaultMapPath()))
                let rides = root.isEmpty ? "Rides" : root + "/Rides"
                ShippedRidesBenchmark(selfPath: me, runs: Self.shippedRideRuns).run(ridesDir: rides)
                print("trace match \(name): " + TraceMatcher.benchmark(map: m))
            }
        }
    }

    /// The `--scale` section, or with `--write-region` only the region file.
    func runScale(_ list: String) throws {
        let ks = list.split(separator: ",").compactMap { Int(String($0).trimmingWhitespace()) }
        guard !ks.isEmpty, ks.count == list.split(separator: ",").count, ks.allSatisfy({ $0 >= 1 && $0 <= RegionLayout.maxK }) else {
            throw ValidationError("--scale takes a comma-separated list of K in 1…\(RegionLayout.maxK), e.g. 1,3,5,7")
        }
        let dataDir = data ?? "../shared/data"
        let pbf = dataDir + "/maps/heidelberg-ors-2024/heidelberg.test.pbf"
        guard FileManager.default.fileExists(atPath: pbf) else { throw ValidationError("--scale needs \(pbf) (give --data)") }
        if let writeRegion {
            guard ks.count == 1 else { throw ValidationError("--write-region takes one K (--scale K)") }
            let source = try RegionSource.read(path: pbf)
            let s = try RegionGenerator.write(source, k: ks[0], to: writeRegion)
            print(String(printf: "%@: %d×%d tiles of Heidelberg in %d rows × %d columns, %d nodes (%d road nodes), %d ways (%d joins), %d relations, %.1f MB; box %.4f,%.4f,%.4f,%.4f (S,W,N,E)",
                         writeRegion, ks[0], ks[0], s.layout.rows, s.layout.columns, s.nodes, s.roadNodes, s.ways, s.joins.count, s.relations, Double(s.bytes) / 1e6,
                         s.bbox.minLat, s.bbox.minLon, s.bbox.maxLat, s.bbox.maxLon))
            return
        }
        #if DEBUG
        if !json { print("note: this is a debug build; figures are only meaningful from `swift build -c release`") }
        #endif
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("skateroute-scale-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let bench = ScaleBenchmark(ks: ks, pairs: pairs, seed: seed, json: json, heidelbergPBF: pbf,
                                   demDir: dataDir + "/dem/srtm3-south-west-germany", selfPath: me)
        if let scaleMap {
            guard ks.count == 1 else { throw ValidationError("--scale-map takes one K (--scale K)") }
            try bench.routeFigures(mapPath: scaleMap, tmp: tmp, clock: routeClock)
            return
        }
        try bench.run(tmp: tmp)
    }

    /// The `--braking` section: Monaco (bundled) and Heidelberg with its three SRTM tiles.
    /// The three SRTM tiles that cover the Heidelberg extract (N49E007–N49E009) in `dataDir`.
    static func heidelbergDEM(_ dataDir: String) -> [String] {
        ["N49E007", "N49E008", "N49E009"].map { dataDir + "/dem/srtm3-south-west-germany/\($0).hgt.zip" }
    }

    func runBraking() throws {
        let dataDir = data ?? "../shared/data"
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("skateroute-bench-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        // Each entry "b" (caution at the table's share of it) or "b:c" (caution c s/m, eleventh round).
        let weightSpecs = brakingWeights.split(separator: ",").map { $0.split(separator: ":").map { Double(String($0).trimmingWhitespace()) } }
        let weights = weightSpecs.compactMap { $0.first ?? nil }
        let cautions = weightSpecs.filter { ($0.first ?? nil) != nil }.map { $0.count == 2 ? $0[1] : nil }
        var sets = [BrakingBenchmark.MapSet(name: "Monaco", srmap: monacoMap ?? BundledMaps.defaultMapPath(),
                                            pbf: dataDir + "/maps/monaco-geofabrik-2026/monaco-latest.osm.pbf",
                                            dem: [dataDir + "/dem/N43E007-monaco/N43E007.pyhgtmap.hgt"])]
        let hd = dataDir + "/maps/heidelberg-ors-2024/heidelberg.test.pbf"
        let hdDEM = Self.heidelbergDEM(dataDir)
        if !noHeidelberg && FileManager.default.fileExists(atPath: hd) {
            var path = heidelbergMap
            if path == nil {
                let out = tmp + "/heidelberg.srmap"
                let (m, _) = try MapImporter.compile(osmPath: hd, demPaths: hdDEM, options: ImportOptions(name: "Heidelberg"))
                try MapFormat.write(m, to: out)
                path = out
            }
            sets.append(.init(name: "Heidelberg", srmap: path!, pbf: hd, dem: hdDEM))
        }
        var variants: [(String, SteepLineRule.Values)] = []
        for spec in (steepVariants ?? "").split(separator: ";") {
            let f = spec.split(separator: "/", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
            let fastShare = f.count >= 4 ? Double(f[3]) : SteepLineRule.tooFastRoadShare
            // The first field is a share of the braking weight, or "m<metres>": a braking metre
            // worth that many metres of detour (SteepLineRule.brakingDetourMetres).
            let detour = f.first.flatMap { $0.hasPrefix("m") ? Double($0.dropFirst()) : nil }
            let guardOn = f.count == 5 ? f[4] == "1" : SteepLineRule.surfaceGuard
            // "B:C": braking share B, caution share C (eleventh round); "B": both B.
            let shares = (f.first ?? "").split(separator: ":").map { Double(String($0)) }
            // Factors "4+16c2": the searches' caution factor × 2 their braking factor (searchCautionRatio).
            let fc = f.count > 1 ? f[1].split(separator: "c", omittingEmptySubsequences: false).map(String.init) : []
            let ratio = fc.count == 2 ? Double(fc[1]) : SteepLineRule.searchCautionRatio
            guard (3...5).contains(f.count), let share = detour != nil ? SteepLineRule.lineBrakingShare : shares.first ?? nil,
                  let cautionShare = detour != nil ? SteepLineRule.lineCautionShare : (shares.count == 2 ? shares[1] : share),
                  let rounds = Int(f[2]), let fast = fastShare, let cRatio = ratio, share >= 0, cautionShare >= 0, cRatio >= 0, rounds >= 0, fast >= 0 else {
                throw ValidationError("--steep-variants: \"\(spec)\" is not share[:caution share]/factors[c caution ratio]/rounds[/too-fast-road share[/surface guard 0|1]] (e.g. 1/4+16/3, 2/4/2/0, 2:4/4c2/2 or m30/4/2/1/1)")
            }
            let factors = fc.first.map { $0 == "-" ? [] : $0.split(separator: "+").compactMap { Double(String($0)) } } ?? []
            variants.append((String(spec), SteepLineRule.Values(searchFactors: factors, lineBrakingShare: share, lineCautionShare: cautionShare,
                                                                penaltyRounds: rounds, tooFastRoadShare: fast, brakingDetourMetres: detour, surfaceGuard: guardOn,
                                                                searchCautionRatio: cRatio)))
        }
        var bench = BrakingBenchmark(sets: sets, weights: weights, seed: seed, bounds: brakingBounds, auditDir: surfaceAudit)
        bench.steepVariants = variants
        bench.cautionWeights = cautions
        bench.perPair = brakingPerPair
        bench.exactOnly = brakingExactOnly
        bench.fixedMu = (brakingMu ?? "").split(separator: ",").compactMap { Double(String($0).trimmingWhitespace()) }
        bench.run(tmp: tmp)
    }

    /// Frame render + diff at 200×60: the browse screen, then the navigator screens.
    static func printTUIFigures(map m: SkateMap, name: String) {
        let r = TUIBenchmark.benchmarkRegion(map: m)
        print(String(printf: "tui 200x60 %@ (CPU time): first frame %.1f ms; widest browse frame (%.0f m/dot) %.2f ms (the first %.1f ms), with the surface layer %.2f ms (the first %.1f ms); place index %.1f ms (first use, off the UI thread), search p50 %.1f ms, max %.1f ms",
                     name, r.firstFrameSeconds * 1000, r.widestMetresPerDot, r.widestFrameSeconds * 1000, r.firstWidestFrameSeconds * 1000,
                     r.widestLayerFrameSeconds * 1000, r.firstLayerFrameSeconds * 1000, r.searchIndexSeconds * 1000, r.searchMedianSeconds * 1000, r.searchMaxSeconds * 1000))
        print(String(printf: "tui 200x60 %@ (CPU time): widest map alone %.2f ms with the level of detail, %.2f ms drawing every street but footways (as before issue 31): %.1fx",
                     name, r.widestMapSeconds * 1000, r.widestFullDetailMapSeconds * 1000,
                     r.widestFullDetailMapSeconds / max(r.widestMapSeconds, 1e-9)))
        let f = TUIBenchmark.benchmarkFrame(map: m)
        print(String(printf: "tui frame 200x60 %@: render %.2f ms + diff %.2f ms (%d changed cells)", name, f.renderSeconds * 1000, f.diffSeconds * 1000, f.changedCells))
        for t in TUIBenchmark.benchmarkNavigator(map: m) {
            print(String(printf: "tui frame 200x60 %@, %@: render %.2f ms + diff %.2f ms (%d changed cells a frame)", name, t.name,
                         t.renderSeconds * 1000, t.diffSeconds * 1000, t.changedCells))
        }
    }

    /// Whole-process replays per shipped ride (the median is printed).
    static let shippedRideRuns = 9

    /// Upper ends (metres) of the route-length bands the p99 figures are split by.
    static let lengthBands: [Double] = [1000, 2000, 4000, 8000, 12000]

    /// In-process routing: `pairs` seeded random O/D pairs × all modes; p50 / p90 / p99 / max
    /// per mode and p99 per route-length band (the plan's own distance).
    func routeFigures(name: String, map: SkateMap) throws {
        try routeFigures(name: name, map: map, boundedSearch: true)
        if beforeAfter { try routeFigures(name: name, map: map, boundedSearch: false) }
        if nodeLabels { try routeFigures(name: name, map: map, boundedSearch: true, edgeLabels: false) }
        if exactPairs > 0 { printExactness(name: name, map: map) }
    }

    /// "exactness …: N of N searches equal a plain Dijkstra over the costing": the default
    /// search, a plan's first search as the planner runs it (its bounds, the target edge's last
    /// part and the plan's `TargetCostBound` in the heuristic) and the old per-node labels
    /// against `ReferenceSearch`, with and without the crusty rule. The planner's search with the
    /// rule answers only when its line keeps it; without the rule it is asked for the relaxed line.
    func printExactness(name: String, map: SkateMap) {
        var planner = Planner(map: map)
        let exact = ExactnessCheck.run(planner: planner, pairsPerMode: exactPairs, seed: seed) { r, a, b, hard in r.route(from: a, to: b, hardRule: hard) }
        let planned = ExactnessCheck.run(planner: planner, pairsPerMode: exactPairs, seed: seed) { r, a, b, hard in
            let p = Planner.firstLine(router: r, from: a, to: b, ruleUnmet: !hard)
            return hard && p?.crustyRuleMet != true ? nil : p
        }
        planner.edgeLabels = false
        let old = ExactnessCheck.run(planner: planner, pairsPerMode: exactPairs, seed: seed) { r, a, b, hard in r.route(from: a, to: b, hardRule: hard) }
        print(String(printf: "exactness %@: default search %d of %d searches equal a plain Dijkstra over the costing (%d disagree on reachability); a plan's first search %d of %d (%d disagree, worst +%.2e); per-node labels %d of %d (worst +%.2f %%)",
                     name, exact.equal, exact.compared, exact.disagreed, planned.equal, planned.compared, planned.disagreed, planned.worstExcess,
                     old.equal, old.compared, old.worstExcess * 100))
    }

    func routeFigures(name: String, map: SkateMap, boundedSearch: Bool, edgeLabels: Bool = true) throws {
        let t0 = Self.now()
        var planner = Planner(map: map)
        planner.boundedSearch = boundedSearch
        planner.edgeLabels = edgeLabels
        let prep = Self.now() - t0
        let tag = (boundedSearch ? "" : " [old order: unbounded searches]") + (edgeLabels ? "" : " [node labels]") + (cpuTime ? " [CPU time]" : "")
        var rng = SplitMix64(seed: seed)
        // Sampled in OSM order (way id, end node ids), not edge-index order: the same pairs
        // whichever way the importer numbers the edges (`--first-seen-order`).
        let mainEdges = (0..<map.edgeCount).filter { planner.components.isMain(edge: $0) && map.isRideable(edge: $0) }
            .sorted(by: map.edgePrecedesInOSMOrder)
        guard !mainEdges.isEmpty else { return }
        var od: [(Coordinate, Coordinate)] = []
        for _ in 0..<pairs {
            let a = mainEdges[Int(rng.next() % UInt64(mainEdges.count))], b = mainEdges[Int(rng.next() % UInt64(mainEdges.count))]
            od.append((map.coordinate(ofNode: Int(map.edgeFrom[a])), map.coordinate(ofNode: Int(map.edgeTo[b]))))
        }
        var all: [Double] = []
        var byBand = [[Double]](repeating: [], count: Self.lengthBands.count + 1)
        var failures = 0
        for mode in RideMode.allCases {
            let router = planner.router(for: mode)
            var times: [Double] = []
            var searches: [Double] = [], settled: [Double] = []
            for (a, b) in od {
                let n0 = SearchCounters.searches, k0 = SearchCounters.settled
                let s = routeClock()
                var length = 0.0
                do { length = try planner.plan(from: try router.snap(a), to: try router.snap(b), router: router, mode: mode).distance } catch { failures += 1 }
                let t = routeClock() - s
                searches.append(Double(SearchCounters.searches - n0)); settled.append(Double(SearchCounters.settled - k0))
                times.append(t)
                byBand[Self.lengthBands.firstIndex { length <= $0 } ?? Self.lengthBands.count].append(t)
            }
            all += times
            print(String(printf: "  route %@ %@%@: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.1f ms", name, mode.rawValue, tag,
                         Self.percentile(times, 0.5) * 1000, Self.percentile(times, 0.9) * 1000, Self.percentile(times, 0.99) * 1000, (times.max() ?? 0) * 1000))
            print(String(printf: "    A* work per plan: %.1f searches (max %.0f), states settled p50 %.0f, p99 %.0f, max %.0f",
                         searches.reduce(0, +) / Double(max(1, searches.count)), searches.max() ?? 0,
                         Self.percentile(settled, 0.5), Self.percentile(settled, 0.99), settled.max() ?? 0))
        }
        var bands = ""
        for (i, ts) in byBand.enumerated() where !ts.isEmpty {
            let label = i < Self.lengthBands.count ? String(printf: "≤ %.0f km", Self.lengthBands[i] / 1000) : String(printf: "> %.0f km", Self.lengthBands.last! / 1000)
            bands += String(printf: " %@: %.2f ms (%d);", label, Self.percentile(ts, 0.99) * 1000, ts.count)
        }
        print("  route \(name)\(tag) p99 by route length (plans):" + bands)
        print(String(printf: "route %@%@ all modes (%d plans): p50 %.2f ms, p90 %.2f ms, p99 %.2f ms; planner setup %.1f ms; %d failed",
                     name, tag, all.count, Self.percentile(all, 0.5) * 1000, Self.percentile(all, 0.9) * 1000, Self.percentile(all, 0.99) * 1000, prep * 1000, failures))
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The routing figures' clock: wall time, or with `--cpu-time` the process's CPU time.
    func routeClock() -> Double {
        guard cpuTime else { return Self.now() }
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func median(_ x: [Double]) -> Double { percentile(x, 0.5) }

    static func percentile(_ x: [Double], _ p: Double) -> Double {
        guard !x.isEmpty else { return 0 }
        let s = x.sorted()
        return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
    }
}
