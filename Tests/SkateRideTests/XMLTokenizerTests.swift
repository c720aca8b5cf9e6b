import Foundation
import Testing
@testable import SkateRide
import SkateCore
import SkateTestSupport

/// All events of `text`, or the error.
private func events(_ text: String) throws(XMLSyntaxError) -> [XMLEvent] {
    try events(Array(text.utf8))
}

private func events(_ bytes: [UInt8]) throws(XMLSyntaxError) -> [XMLEvent] {
    var tokenizer = try XMLPullTokenizer(bytes: bytes)
    var out: [XMLEvent] = []
    while let e = try tokenizer.next() { out.append(e) }
    return out
}

/// The error `text` gives, or nil (recorded as an issue) if it parses.
private func syntaxError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> XMLSyntaxError? {
    syntaxError(Array(text.utf8), sourceLocation: sourceLocation)
}

private func syntaxError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> XMLSyntaxError? {
    do {
        _ = try events(bytes)
        Issue.record("parsed without error", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Concatenated text events (adjacent runs are separate events).
private func text(_ es: [XMLEvent]) -> String {
    es.map { if case let .text(t) = $0 { t } else { "" } }.joined()
}

private func start(_ name: String, _ attributes: [(String, String)] = []) -> XMLEvent {
    .startElement(name: name, attributes: attributes.map { XMLAttribute(name: $0.0, value: $0.1) })
}

@Suite struct XMLTokenizerTests {
    @Test func elementsTextAndSelfClosingTags() throws {
        let es = try events("<a>hi<b/><c x=\"1\"/>there</a>")
        #expect(es == [start("a"), .text("hi"), start("b"), .endElement(name: "b"),
                       start("c", [("x", "1")]), .endElement(name: "c"), .text("there"), .endElement(name: "a")])
        #expect(try events("<g:gpx xmlns:g=\"urn:x\"></g:gpx >") == [start("g:gpx", [("xmlns:g", "urn:x")]), .endElement(name: "g:gpx")])
        #expect(XMLName.local("g:trkpt") == "trkpt")
        #expect(XMLName.local("trkpt") == "trkpt")
        #expect(XMLName.local("a:b:ele") == "ele")
    }

    @Test func predefinedEntitiesAndCharacterReferences() throws {
        #expect(text(try events("<a>&lt;&gt;&amp;&quot;&apos; x</a>")) == "<>&\"' x")
        #expect(text(try events("<a>&#65;&#x42;&#x1F6F9;&#233;</a>")) == "AB🛹é")
        #expect(text(try events("<a>&amp;lt;</a>")) == "&lt;")  // decoded once, not twice
        for bad in ["&#0;", "&#x0;", "&#xD800;", "&#x110000;", "&#xFFFE;", "&#;", "&#x;", "&#12a;", "&#X41;", "&#99999999999;"] {
            let e = syntaxError("<a>\n\(bad)</a>")
            #expect(e?.line == 2, "\(bad)")
        }
        let bare = syntaxError("<a>\nTom & Jerry</a>")
        #expect(bare?.line == 2)
        #expect(bare?.message.contains("bare '&'") == true)
    }

    @Test func cdataPassesThroughVerbatim() throws {
        let es = try events("<a>x<![CDATA[<b>&amp; ]] >]]>y<![CDATA[]]></a>")
        #expect(es == [start("a"), .text("x"), .text("<b>&amp; ]] >"), .text("y"), .endElement(name: "a")])
        #expect(syntaxError("<![CDATA[x]]><a/>")?.message.contains("CDATA") == true)
        #expect(syntaxError("<a><![CDATA[never closed</a>")?.message.contains("truncated") == true)
    }

    @Test func commentsProcessingInstructionsAndDoctypeAreSkipped() throws {
        let doc = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE gpx SYSTEM "gpx.dtd" [
          <!ENTITY x "y>z">
          <!-- a ' comment with ] and > inside -->
        ]>
        <!-- before -->
        <a><?pi <b> ?><!-- <b> & --></a>
        <!-- after --><?after?>
        """
        #expect(try events(doc) == [start("a"), .endElement(name: "a")])
        #expect(syntaxError("<a><!DOCTYPE a></a>")?.message.contains("DOCTYPE") == true)
        #expect(syntaxError("<a><!ELEMENT a></a>")?.message.contains("unknown markup") == true)
    }

    @Test func attributesInBothQuoteStylesDecodedAndNormalised() throws {
        let es = try events("<a x=\"1\" y='2' z=\"it's\" w='say \"hi\"' v=\"a&amp;b&#10;c\td\ne\" e = 'sp' gt=\"a>b\"/>")
        guard case let .startElement(_, attributes) = es.first else { Issue.record("no start"); return }
        let values = Dictionary(uniqueKeysWithValues: attributes.map { ($0.name, $0.value) })
        #expect(attributes.map(\.name) == ["x", "y", "z", "w", "v", "e", "gt"])
        #expect(values["x"] == "1" && values["y"] == "2")
        #expect(values["z"] == "it's")
        #expect(values["w"] == "say \"hi\"")
        #expect(values["v"] == "a&b\nc d e")  // literal tab/newline → space; &#10; stays a newline
        #expect(values["e"] == "sp")
        #expect(values["gt"] == "a>b")
        for (bad, problem) in [("<a x=1/>", "not quoted"), ("<a x/>", "no value"), ("<a x=\"1\" x=\"2\"/>", "twice"),
                               ("<a x=\"1\"y=\"2\"/>", "no space"), ("<a x=\"<\"/>", "'<'"), ("<a =\"1\"/>", "without"),
                               ("<a x=\"&bogus;\"/>", "predefined")] {
            let e = syntaxError(bad)
            #expect(e?.message.contains(problem) == true, "\(bad): \(String(describing: e))")
            #expect(e?.line == 1)
        }
    }

    @Test func mismatchedTagsNameTheRightLine() {
        let e = syntaxError("<a>\n  <b>\n  </c>\n</a>")
        #expect(e?.line == 3)
        #expect(e?.message.contains("</c> closes <b>") == true)
        #expect(e?.message.contains("opened at line 2") == true)
        #expect(syntaxError("<a>\r\n<b>\r\n</a>")?.line == 3)  // CR LF counted once
        #expect(syntaxError("<a>\r<b>\r</a>")?.line == 3)      // lone CR ends a line too
        #expect(syntaxError("<a></a>\n</a>")?.message.contains("closes nothing") == true)
        #expect(syntaxError("<a/>\n<b/>")?.line == 2)  // second root
        #expect(syntaxError("<a>\n</ a>")?.line == 2)
    }

    @Test func truncatedDocumentsAreErrorsAtTheirLine() {
        let open = syntaxError("<a>\n<b>\ntext")
        #expect(open?.line == 3)
        #expect(open?.message.contains("<b> (opened at line 2) is not closed") == true)
        let inTag = syntaxError("<a>\n<b x=\"1")
        #expect(inTag?.line == 2)
        #expect(inTag?.message.contains("truncated") == true)
        for cut in ["<a><!-- x", "<a><?pi", "<!DOCTYPE a [", "<a></a", "<a><", "<a><b"] {
            #expect(syntaxError(cut)?.message.contains("truncated") == true, "\(cut)")
        }
        #expect(syntaxError("")?.message.contains("empty") == true)
        #expect(syntaxError("  \n <!-- only a comment -->")?.message.contains("no XML root") == true)
    }

    @Test func garbageIsAnErrorNeverACrash() {
        #expect(syntaxError("hello")?.message.contains("not an XML document") == true)
        #expect(syntaxError("<a/>tail")?.message.contains("after the root") == true)
        #expect(syntaxError("<1a/>")?.message.contains("invalid element name") == true)
        #expect(syntaxError("< a/>")?.line == 1)
        let badUTF8 = syntaxError(Array("<a>\n".utf8) + [0xC3, 0x28] + Array("</a>".utf8))
        #expect(badUTF8?.line == 2)
        #expect(badUTF8?.message.contains("UTF-8") == true)
        #expect(syntaxError(Array("<a>\n\n".utf8) + [0x01] + Array("</a>".utf8))?.line == 3)
        #expect(syntaxError([0xED, 0xA0, 0x80])?.message.contains("UTF-8") == true)  // encoded surrogate
        #expect(syntaxError([0xFF, 0xFE, 0x3C, 0x00])?.message.contains("UTF-16") == true)
        // Random bytes, and random damage to a valid document: always a clean error or a parse.
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<50 {
            let bytes = (0..<512).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            #expect(syntaxError(bytes) != nil)
        }
        let valid = Array("<?xml version=\"1.0\"?>\n<gpx a=\"1\">\n<trk><name>x &amp; y</name>\n<trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg>\n</trk><!-- c -->\n</gpx>\n".utf8)
        let lines = valid.filter { $0 == 0x0A }.count + 1
        for k in 0..<300 {
            var damaged = valid
            let at = Int(rng.next() % UInt64(damaged.count))
            switch k % 3 {
            case 0: damaged.removeSubrange(at...)
            case 1: damaged[at] = UInt8(truncatingIfNeeded: rng.next())
            default: damaged.insert(UInt8(ascii: "<"), at: at)
            }
            do {
                _ = try events(damaged)
            } catch {
                #expect((1...lines + 1).contains(error.line), "\(error)")
            }
        }
    }

    @Test func entityExpansionFromADTDIsImpossible() throws {
        // The classic "billion laughs": the DTD is skipped, its entities are never defined, and the
        // first reference is an error at once (no expansion, no memory blow-up).
        var doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
        for i in 1...9 { doc += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1 == 0 ? "" : String(i - 1));", count: 10) + "\">\n" }
        doc += "]>\n<lolz>&lol9;</lolz>\n"
        let e = syntaxError(doc)
        #expect(e?.line == 14)
        #expect(e?.message.contains("&lol9;") == true)
        #expect(e?.message.contains("never expanded") == true)
        // In an attribute too; and the same DTD with no reference parses, the entity text unused.
        #expect(syntaxError("<!DOCTYPE a [<!ENTITY e \"x\">]><a v=\"&e;\"/>")?.message.contains("&e;") == true)
        #expect(try events("<!DOCTYPE a [<!ENTITY e \"x\">]><a>e</a>") == [start("a"), .text("e"), .endElement(name: "a")])
        // An external entity cannot be fetched either.
        #expect(syntaxError("<!DOCTYPE a [<!ENTITY ext SYSTEM \"file:///etc/passwd\">]><a>&ext;</a>") != nil)
    }

    @Test func encodingsBOMAndLineBreaks() throws {
        #expect(try events(Array("\u{FEFF}<a>é</a>".utf8)) == [start("a"), .text("é"), .endElement(name: "a")])
        let latin1: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a n=\"".utf8) + [0xE9] + Array("\">".utf8) + [0xFC] + Array("</a>".utf8)
        #expect(try events(latin1) == [start("a", [("n", "é")]), .text("ü"), .endElement(name: "a")])
        #expect(syntaxError("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><a/>")?.message.contains("Shift_JIS") == true)
        #expect(text(try events("<a>1\r\n2\r3\n</a>")) == "1\n2\n3\n")
        #expect(text(try events("<a><![CDATA[1\r\n2]]></a>")) == "1\n2")
    }

    @Test func eventLineNamesWhereEachEventStarts() throws {
        var t = try XMLPullTokenizer(bytes: Array("<a>\n\n  <b\n x='1'/>\n</a>".utf8))
        var lines: [Int] = []
        while let e = try t.next() {
            if case .startElement = e { lines.append(t.eventLine) }
        }
        #expect(lines == [1, 3])
    }

    @Test func oversizedPiecesAndDeepNestingAreRefused() {
        let long = String(repeating: "x", count: XMLPullTokenizer.maxTokenBytes + 1)
        #expect(syntaxError("<a>\(long)</a>")?.message.contains("longer than") == true)
        #expect(syntaxError("<a><!--\(long)--></a>")?.message.contains("longer than") == true)
        #expect(syntaxError("<a v=\"\(long)\"/>")?.message.contains("longer than") == true)
        #expect(syntaxError("<a\(long)/>")?.message.contains("longer than") == true)
        #expect(syntaxError("<a \(long)='1'/>")?.message.contains("longer than") == true)
        let depth = XMLPullTokenizer.maxDepth + 1
        let deep = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        #expect(syntaxError(deep)?.message.contains("nested deeper") == true)
        let ok = XMLPullTokenizer.maxDepth
        #expect((try? events(String(repeating: "<a>", count: ok) + String(repeating: "</a>", count: ok)))?.count == 2 * ok)
    }
}

@Suite struct FileBytesTests {
    @Test func readsRefusesOversizeAndReportsMissing() throws {
        let dir = TestData.temporaryDirectory("filebytes")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("f.gpx").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 65, count: 200_000))
        #expect(try FileBytes.read(path: path, maxBytes: 200_000).count == 200_000)
        #expect(throws: FileBytes.Failure.tooLarge(bytes: 200_000)) { try FileBytes.read(path: path, maxBytes: 199_999) }
        // A directory is named as one (issue 15: every input path must be a regular file).
        #expect(throws: FileBytes.Failure.unreadable("is a directory, not a file")) { try FileBytes.read(path: dir.path, maxBytes: 10) }
        #expect(throws: FileBytes.Failure.unreadable("is a character device, not a regular file")) { try FileBytes.read(path: "/dev/zero", maxBytes: 10) }
        #expect(throws: FileBytes.Failure.notFound) { try FileBytes.read(path: path + ".missing", maxBytes: 10) }
    }
}
