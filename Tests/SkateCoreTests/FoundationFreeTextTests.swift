import Foundation
@testable import SkateCore
import SkateTestSupport
import Testing

/// The modules build on FoundationEssentials alone (CoreFoundation's start-up costs every process
/// 2.8 MB; README). What replaced corelibs Foundation is checked here against corelibs Foundation
/// itself, which the tests may still import: `String(format:)`, `trimmingCharacters`, NSString's
/// path methods, `JSONSerialization`, `ISO8601DateFormatter`.
@Suite struct FoundationFreeTextTests {
    /// The guard that keeps CoreFoundation out: no source file of the app imports corelibs
    /// Foundation (or GRDB, which does), so `skateroute` links FoundationEssentials only.
    @Test func noModuleImportsCorelibsFoundation() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let banned: Set<String> = ["Foundation", "FoundationXML", "FoundationNetworking", "FoundationInternationalization",
                                   "CoreFoundation", "GRDB"]
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100)
        var offenders: [String] = []
        for f in files {
            let text = try String(contentsOfFile: sources.appendingPathComponent(f).path, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").filter { !$0.hasPrefix("@") && !["public", "internal", "package"].contains($0) }
                if words.count >= 2, words[0] == "import", banned.contains(String(words[1])) { offenders.append("\(f): \(line)") }
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }

    @Test func printfMatchesStringFormatOnSeededValues() {
        var rng = SplitMix64(seed: 2611)
        let doubleFormats = ["%.1f", "%.0f", "%.2f", "%.5f", "%.3f", "%.4f", "%.3g", "%.4g", "%.6g", "%8.1f", "%5.0f",
                             "%7.1f", "%6.1f", "%4.0f", "%+.2f", "%-8.2f|", "%08.3f", "%e", "%.2e", "%g"]
        let intFormats = ["%d", "%02d", "%5d", "%lld", "%-5d|", "%+d", "%x", "%X", "%o", "%u", "%i"]
        var compared = 0
        for _ in 0..<3_000 {
            let magnitude = pow(10.0, Double(Int(rng.next() % 12)) - 4)
            let x = (Double(rng.next() % 2_000_001) / 1_000_000 - 1) * magnitude
            for f in doubleFormats {
                #expect(String(printf: f, x) == String(format: f, x), "\(f) \(x)")
                compared += 1
            }
            let n = Int(rng.next() % 200_001) - 100_000
            for f in intFormats where n >= 0 || !["%x", "%X", "%o", "%u"].contains(f) {
                #expect(String(printf: f, n) == String(format: f, n), "\(f) \(n)")
                compared += 1
            }
        }
        #expect(compared > 80_000)
    }

    @Test func printfMixesTextNumbersAndPercent() {
        let name = "Boulevard du Larvotto", km = 1.25, n = 3
        #expect(String(printf: "%@ %.1f km, %d turns, 40%% downhill", name, km, n)
            == String(format: "%@ %.1f km, %d turns, 40%% downhill", name, km, n))
        #expect(String(printf: "%-12s|", "ab") == "ab          |")
        #expect(String(printf: "%5@|%.2@", "x", "long") == "    x|lo")
        #expect(String(printf: "%*d|%.*f", 4, 7, 2, 3.14159) == "   7|3.14")
        // Missing arguments and a trailing lone % never crash.
        #expect(String(printf: "%d and %.1f", 5) == "5 and 0.0")
        #expect(String(printf: "100%") == "100%")
        #expect(String(printf: "nan %.1f inf %.0f", Double.nan, -Double.infinity) == String(format: "nan %.1f inf %.0f", Double.nan, -Double.infinity))
    }

    @Test func printfIgnoresTheProcessLocale() {
        // The TUI calls setlocale(LC_ALL, ""); a comma locale must not reach the numbers.
        let before = String(cString: setlocale(LC_NUMERIC, nil))
        defer { _ = setlocale(LC_NUMERIC, before) }
        for name in ["de_DE.UTF-8", "fr_FR.UTF-8", "C.UTF-8"] where setlocale(LC_NUMERIC, name) != nil {
            #expect(String(printf: "%.2f", 1234.5) == "1234.50", "\(name)")
        }
    }

    @Test func trimmingMatchesCharacterSets() {
        let samples = ["  a b  ", "\t\u{00A0}x\u{2003}", "\n y \r\n", "\u{2028}z\u{0085}", "", "   ", "ä ", " \u{1F6F9} ",
                       "\u{000B}v\u{000C}", "\"quoted\"", ",,,unit;)", "a\u{200B}"]
        for s in samples {
            #expect(s.trimmingWhitespace() == s.trimmingCharacters(in: .whitespaces), "\(s.debugDescription)")
            #expect(s.trimmingWhitespaceAndNewlines() == s.trimmingCharacters(in: .whitespacesAndNewlines), "\(s.debugDescription)")
            #expect(s.trimming(charactersIn: "\",.;:)") == s.trimmingCharacters(in: CharacterSet(charactersIn: "\",.;:)")))
        }
        // Every scalar of the first 0x3000 and the line separators, one at a time around a letter.
        for v in Array(0..<0x3000) + [0x2028, 0x2029, 0xFEFF] {
            guard let u = Unicode.Scalar(v) else { continue }
            let s = String(u) + "k" + String(u)
            #expect(s.trimmingWhitespace() == s.trimmingCharacters(in: .whitespaces), "U+\(String(v, radix: 16))")
            #expect(s.trimmingWhitespaceAndNewlines() == s.trimmingCharacters(in: .whitespacesAndNewlines), "U+\(String(v, radix: 16))")
        }
    }

    @Test func paddingAndCaselessSearchMatchFoundation() {
        for (s, n) in [("abc", 6), ("abcdef", 3), ("", 2), ("äöb", 5), ("xy", 2)] {
            #expect(s.padded(toLength: n) == s.padding(toLength: n, withPad: " ", startingAt: 0))
        }
        // One deliberate difference: NSString counts UTF-16 units, `padded` counts characters, so
        // a column with an emoji still lines up on a terminal.
        #expect("ä😀b".padded(toLength: 5) == "ä😀b  " && "ä😀b".padding(toLength: 5, withPad: " ", startingAt: 0) == "ä😀b ")
        for (hay, needle) in [("# Units: m/s^2", "units:"), ("UNITS=g", "units"), ("no unit here", "units"), ("uNiTs", "units"), ("", "units")] {
            let mine = hay.rangeIgnoringASCIICase(of: needle).map { hay[$0] }
            let theirs = hay.range(of: needle, options: .caseInsensitive).map { hay[$0] }
            #expect(mine == theirs, "\(hay)")
        }
    }

    @Test func pathTextMatchesNSString() {
        let paths = ["/a/b/c.csv", "a/b", "b", "/a", "/", "", "a/b/", "/a/b.tar.gz", "rides/.hidden", "x.", "./r.gpx",
                     "dir/ride.json"]
        for p in paths {
            let ns = p as NSString
            #expect(PathText.lastComponent(p) == ns.lastPathComponent, "\(p)")
            #expect(PathText.deletingExtension(p) == ns.deletingPathExtension, "\(p)")
            // corelibs NSString traps on a path without a slash here (Illegal instruction: "", "b"),
            // so those are pinned below.
            if p.contains("/") { #expect(PathText.deletingLastComponent(p) == ns.deletingLastPathComponent, "\(p)") }
            for c in ["x", "ride.json", "sub/y.csv"] {
                #expect(PathText.appending(p, c) == ns.appendingPathComponent(c), "\(p) + \(c)")
            }
        }
        #expect(PathText.deletingLastComponent("") == "" && PathText.deletingLastComponent("b") == ""
            && PathText.deletingLastComponent("x.") == "")
    }

    @Test func jsonNodeReadsWhatJSONSerializationReads() throws {
        let line = #"{"t":12.5,"lat":43.7341234,"lon":7.4149,"edge":4711,"way":123456789012,"class":"butter","off":false,"rms":null,"n":[1,2.5,"x"],"summary":{"distance_m":1200}}"#
        let node = try #require(JSONNode.parse(line))
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(node["t"]?.double == (obj["t"] as? NSNumber)?.doubleValue)
        #expect(node["lat"]?.double == (obj["lat"] as? NSNumber)?.doubleValue)
        #expect(node["way"]?.int64 == (obj["way"] as? NSNumber)?.int64Value)
        #expect(node["edge"]?.int == obj["edge"] as? Int)
        #expect(node["class"]?.string == obj["class"] as? String)
        #expect(node["off"]?.bool == false && node["rms"] == .null && node["missing"] == nil)
        #expect(node["summary"]?["distance_m"]?.double == 1200)
        #expect(node["n"]?.doubles == nil && node["n"]?.array?.count == 3)
        #expect(node["t"]?.int64 == nil, "12.5 is not an integer, as NSNumber as? Int64 says")
        for bad in ["", "{", "{\"a\":}", "nul", "{\"a\":1}}", "[1 2]"] {
            #expect(JSONNode.parse(bad) == nil, "\(bad)")
            #expect((try? JSONSerialization.jsonObject(with: Data(bad.utf8))) == nil, "\(bad)")
        }
        // Both readers are swift-foundation's parser underneath; they agree on the lenient cases too.
        for lenient in ["[1,]", "{\"a\":1,}", " 7 ", "\"s\""] {
            #expect((JSONNode.parse(lenient) == nil) == ((try? JSONSerialization.jsonObject(with: Data(lenient.utf8), options: .fragmentsAllowed)) == nil), "\(lenient)")
        }
    }

    @Test func iso8601MatchesISO8601DateFormatter() {
        let f = ISO8601DateFormatter()
        let dayF = ISO8601DateFormatter()
        dayF.formatOptions = [.withFullDate]
        var rng = SplitMix64(seed: 8601)
        for _ in 0..<2_000 {
            let t = Double(rng.next() % 4_000_000_000) + Double(rng.next() % 1000) / 1000
            let d = Date(timeIntervalSince1970: t)
            #expect(ISO8601Time.format(t) == f.string(from: d))
            #expect(ISO8601Time.formatDate(t) == dayF.string(from: d))
            for tz in [TimeZone(identifier: "Europe/Monaco")!, TimeZone(identifier: "America/Los_Angeles")!] {
                dayF.timeZone = tz
                #expect(ISO8601Time.formatDate(t, offsetSeconds: tz.secondsFromGMT(for: d)) == dayF.string(from: d))
            }
            dayF.timeZone = TimeZone(secondsFromGMT: 0)
            let text = f.string(from: d)
            #expect(ISO8601Time.parseDateOrDateTime(text) == f.date(from: text)?.timeIntervalSince1970)
            let day = dayF.string(from: d)
            #expect(ISO8601Time.parseDateOrDateTime(day) == dayF.date(from: day)?.timeIntervalSince1970)
        }
        #expect(ISO8601Time.parseFullDate("2026-13-01") == nil && ISO8601Time.parseFullDate("26-11-01") == nil)
    }
}
