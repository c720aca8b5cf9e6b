import Foundation
import SkateCore
import Testing

/// The hand-written JSON matches JSONSerialization (sorted keys, pretty) byte for byte on seeded
/// random trees of the shapes plans use, and escapes what JSON requires.
@Suite struct JSONTextTests {
    func random(_ rng: inout SplitMix64, depth: Int) -> (JSONText, Any) {
        let words = ["Rue Grimaldi", "Quai \"Antoine\"", "back\\slash", "tab\there", "é→ß", "", "line\nbreak", "\u{1}ctl"]
        switch Int(rng.next() % (depth > 2 ? 4 : 6)) {
        case 0:
            let w = words[Int(rng.next() % UInt64(words.count))]
            return (.string(w), w)
        case 1:
            let x = (Double(Int64(rng.next() % 2_000_000)) - 1_000_000) / [1, 10, 100, 1000][Int(rng.next() % 4)]
            return (.number(x), x)
        case 2:
            let b = rng.next() % 2 == 0
            return (.bool(b), b)
        case 3:
            let i = Int(rng.next() % 100)
            return (.number(Double(i)), i)
        case 4:
            var a: [JSONText] = [], b: [Any] = []
            for _ in 0..<Int(rng.next() % 4) { let (x, y) = random(&rng, depth: depth + 1); a.append(x); b.append(y) }
            return (.array(a), b)
        default:
            var a = JSONObject(), b: [String: Any] = [:]
            for k in 0..<Int(rng.next() % 4) {
                let key = ["mode", "distance_m", "steps", "z", "a_b", "zone"][Int(rng.next() % 6)] + "\(k)"
                let (x, y) = random(&rng, depth: depth + 1); a[key] = x; b[key] = y
            }
            return (.object(a), b)
        }
    }

    /// `JSONObject` behaves as the dictionary it replaced: set, replace, remove, merge, and
    /// equality whatever the order members were added in.
    @Test func objectMembersBehaveLikeADictionary() {
        var o: JSONObject = ["b": .int(2), "a": .int(1)]
        o["c"] = .bool(true)
        o["a"] = .string("x")
        o["b"] = nil
        #expect(o.count == 2 && o["a"] == .string("x") && o["b"] == nil && o["c"] == .bool(true))
        o.merge(["c": .null, "d": .int(4)]) { mine, _ in mine }
        #expect(o["c"] == .bool(true) && o["d"] == .int(4))
        o.merge(["c": .null]) { _, theirs in theirs }
        #expect(o["c"] == .null)
        let p: JSONObject = ["d": .int(4), "c": .null, "a": .string("x")]
        #expect(o == p && o != ["a": .string("x")])
        #expect(JSONText.object(o).text() == #"{"a":"x","c":null,"d":4}"#)
        #expect(JSONObject(pairs: [("k", .int(1)), ("k", .int(2))])["k"] == .int(2))
    }

    @Test func matchesJSONSerialization() throws {
        let seed: UInt64 = 0x150_0001
        var rng = SplitMix64(seed: seed)
        for _ in 0..<300 {
            var (ours, theirs) = random(&rng, depth: 0)
            if case .array = ours {} else if case .object = ours {} else { ours = .array([ours]); theirs = [theirs] }
            for pretty in [false, true] {
                var opts: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
                if pretty { opts.insert(.prettyPrinted) }
                let ref = String(decoding: try JSONSerialization.data(withJSONObject: theirs, options: opts), as: UTF8.self)
                #expect(ours.text(pretty: pretty) == ref, "seed \(seed)")
            }
        }
    }

    @Test func escapesAndSpecialNumbers() {
        #expect(JSONText.string("a\"b\\c\n\u{1}é").text() == "\"a\\\"b\\\\c\\n\\u0001é\"")
        #expect(JSONText.array([.number(.nan), .number(3), .number(-0.5), .null]).text() == "[null,3,-0.5,null]")
        #expect(JSONText.object(["b": .bool(true), "a": .bool(false)]).text() == "{\"a\":false,\"b\":true}")
    }

    /// DEL and C1 controls (U+009B is CSI to an 8-bit terminal) never leave raw; U+00A0 does.
    @Test func escapesDELAndC1Controls() throws {
        let text = JSONText.string("a\u{7F}b\u{9B}31mc\u{85}d\u{A0}e").text()
        #expect(text == "\"a\\u007fb\\u009b31mc\\u0085d\u{A0}e\"")
        #expect(!text.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })
        // Still the same string to a JSON reader.
        let back = try JSONSerialization.jsonObject(with: Data(("[" + text + "]").utf8)) as? [String]
        #expect(back == ["a\u{7F}b\u{9B}31mc\u{85}d\u{A0}e"])
    }
}
