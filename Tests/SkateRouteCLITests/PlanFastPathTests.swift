import Testing
@testable import skateroute
import SkateCore

/// The fast `plan` reader must agree with ArgumentParser on every command line it accepts, and
/// hand everything else (help, errors, odd forms) to ArgumentParser.
@Suite struct PlanFastPathTests {
    /// What ArgumentParser makes of the same arguments (nil when it rejects them).
    func viaArgumentParser(_ args: [String]) -> PlanRequest? {
        guard args.first == "plan" else { return nil }
        return (try? PlanCommand.parse(Array(args.dropFirst())))?.request
    }

    @Test func agreesWithArgumentParserOnWellFormedLines() {
        let lines: [[String]] = [
            ["plan", "--from", "Casino", "--to", "Stade Louis II"],
            ["plan", "--from", "43.7341,7.4149", "--to", "43.7260,7.4142", "--no-store"],
            ["plan", "--to", "b", "--from", "a", "--mode", "nightSafe", "--alternatives", "2", "--format", "json"],
            ["plan", "--from=a", "--to=b=c", "--format=geojson", "--map=/tmp/x.srmap", "--data-dir", "/tmp/d", "--now", "2026-11-22T10:00:00Z"],
            ["plan", "--from", "", "--to", "Port Hercule", "--mode", "bogusMode"],
            ["plan", "--from", "a", "--from", "b", "--to", "c"],
            ["plan", "--no-store", "--from", "Place d'Armes", "--to", "Larvotto", "--format", "gpx", "--alternatives", "0"],
            ["plan", "--from", "a", "--to", "b", "--json"],
            ["plan", "--json", "--from", "a", "--to", "b", "--format", "json"],
        ]
        for line in lines {
            let fast = PlanFastPath.parse(line)
            #expect(fast != nil, "fast path refused \(line)")
            #expect(fast == viaArgumentParser(line), "parsers disagree on \(line)")
        }
    }

    @Test func leavesEverythingElseToArgumentParser() {
        let lines: [[String]] = [
            ["plan"], ["plan", "--help"], ["plan", "-h"], ["plan", "--from", "a"],
            ["plan", "--from", "a", "--to", "b", "--bogus"], ["plan", "--from", "a", "--to", "b", "extra"],
            ["plan", "--from", "a", "--to", "b", "--alternatives", "two"], ["plan", "--from", "a", "--to", "b", "--format", "pdf"],
            ["plan", "--from", "a", "--to"], ["plan", "--from", "-1,2", "--to", "b"], ["plan", "--from", "a", "--to", "b", "--no-store=yes"], ["plan", "--from=", "--to", "b"],
            ["plan", "--from", "a", "--to", "b", "--json", "--format", "gpx"],
            ["ride", "x"], [], ["--help"], ["plan", "--", "--from", "a", "--to", "b"],
        ]
        for line in lines { #expect(PlanFastPath.parse(line) == nil, "fast path took \(line)") }
    }

    /// Random option orders and forms from a seeded generator; prints the seed on failure.
    @Test func randomLinesAgree() {
        let seed: UInt64 = 0x5EED_F00D
        var rng = SplitMix64(seed: seed)
        let values = ["Casino", "43.73,7.41", "Rue Grimaldi", "a=b", "x y z", "Ünïcode", ""]
        let options: [(String, [String])] = [
            ("from", values), ("to", values), ("mode", RideMode.allCases.map(\.rawValue) + ["nope"]),
            ("alternatives", ["0", "1", "5", "9", "-1", "x"]), ("format", ["text", "json", "gpx", "geojson", "pdf"]),
            ("map", ["/tmp/m.srmap"]), ("data-dir", ["/tmp/d"]), ("now", ["2026-01-01"]),
        ]
        var accepted = 0
        for _ in 0..<300 {
            var groups: [[String]] = []
            func option(_ name: String, _ vs: [String]) -> [String] {
                let v = vs[Int(rng.next() % UInt64(vs.count))]
                return rng.next() % 2 == 0 ? ["--\(name)=\(v)"] : ["--\(name)", v]
            }
            // Usually both required options, plus a few others in any order.
            if rng.next() % 10 != 0 { groups.append(option("from", values)) }
            if rng.next() % 10 != 0 { groups.append(option("to", values)) }
            for _ in 0..<Int(rng.next() % 5) {
                if rng.next() % 8 == 0 { groups.append(["--no-store"]); continue }
                let (name, vs) = options[Int(rng.next() % UInt64(options.count))]
                groups.append(option(name, vs))
            }
            groups.shuffle(using: &rng)
            let line = ["plan"] + groups.flatMap { $0 }
            if let fast = PlanFastPath.parse(line) {
                accepted += 1
                #expect(fast == viaArgumentParser(line), "seed \(seed): parsers disagree on \(line)")
            }
        }
        #expect(accepted >= 30, "only \(accepted) generated lines were well formed; the generator tests too little")
    }
}
