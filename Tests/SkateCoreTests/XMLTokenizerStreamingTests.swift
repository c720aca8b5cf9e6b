import Testing
@testable import SkateCore

/// The shared XML tokenizer streams through a window: read in tiny pieces, a document must give
/// the same tokens, values and error lines as read whole (CR LF, UTF-8 sequences, markup and
/// references all split across reads).
@Suite("XML tokenizer, streamed")
struct XMLTokenizerStreamingTests {
    /// Everything the tokenizer said of a document: tokens with names, decoded values and texts, then the error if any.
    static func transcript(_ doc: [UInt8], chunk: Int) -> [String] {
        var out: [String] = []
        do {
            var t = try XMLTokenizer(input: XMLArrayInput(doc), chunkBytes: chunk)
            while let token = try t.next() {
                switch token {
                case .startElement:
                    let attributes = try (0..<t.attributeCount).map { i throws(XMLSyntaxError) in "\(t.attributeName(i))=\(try t.attributeValue(i))" }
                    out.append("start \(t.name) [\(attributes.joined(separator: ","))] line \(t.tokenLine)")
                case .endElement: out.append("end \(t.name)")
                case .text: out.append("text \(try t.text().debugDescription)")
                case .cdata: out.append("cdata \(try t.text().debugDescription)")
                }
            }
            out.append("end of document")
        } catch let e as XMLTokenizerError {
            if case .syntax(let s) = e { out.append("error \(s)") } else { out.append("input error") }
        } catch {
            out.append("error \(error)")
        }
        return out
    }

    static let documents: [String] = [
        "<?xml version=\"1.0\"?>\r\n<!DOCTYPE osm [<!-- a > in a comment -->]>\r\n<osm v='0.6'>\r\n <node id=\"1\" lat=\"43.7\" lon=\"7.4\">\r\n  <tag k=\"name\" v=\"Café &amp; ☺ &#x1F6F9; l&apos;ami\"/>\r\n </node>\r\n <!-- c -->\r\n <way id=\"2\"><nd ref=\"1\"/></way>\r\n</osm>\r\n",
        "<gpx><trk><name>Rocher ☺ <![CDATA[a < b\r\nc]]> &lt;3</name><trkseg><trkpt lat=\"43.73\" lon=\"7.42\"><ele>12.5</ele></trkpt></trkseg></trk></gpx>",
        "<a>\n<b>\r\n<c x=\"1\">\r</c>\n</b>\n</a>",
        // Errors: their lines and messages must not depend on where a read ended.
        "<a>\r\n<b>\r\n</c>\r\n</a>",
        "<a>\n\n<b x=\"&bogus;\"/>\n</a>",
        "<a>\n<b>\n",
        "<osm>\n<node id=\"1\" lat=\"\u{1B}]0;x\u{07}\"/>\n</osm>",
        "<a>\n<b x='1' x='2'/></a>",
        "<a/>\n<b/>",
    ]

    @Test("read 1 to 64 bytes at a time: the same tokens, values and error lines as read whole", arguments: [1, 2, 3, 5, 7, 64])
    func sameAsWhole(chunk: Int) {
        for doc in Self.documents {
            let bytes = Array(doc.utf8)
            let whole = Self.transcript(bytes, chunk: bytes.count)
            #expect(Self.transcript(bytes, chunk: chunk) == whole, "\(doc.debugDescription)")
        }
    }

    @Test("the reference transcripts say what the documents hold")
    func reference() {
        let osm = Self.transcript(Array(Self.documents[0].utf8), chunk: 3)
        #expect(osm.contains("start tag [k=name,v=Café & ☺ 🛹 l'ami] line 5"))
        #expect(osm.last == "end of document")
        let gpx = Self.transcript(Array(Self.documents[1].utf8), chunk: 2)
        #expect(gpx.contains("cdata \"a < b\\nc\""))
        #expect(Self.transcript(Array(Self.documents[3].utf8), chunk: 1).last == "error line 3: </c> closes <b> (opened at line 2)")
        #expect(Self.transcript(Array(Self.documents[4].utf8), chunk: 2).last?.hasPrefix("error line 3: entity &bogus;") == true)
        #expect(Self.transcript(Array(Self.documents[5].utf8), chunk: 1).last == "error line 3: truncated: <b> (opened at line 2) is not closed at the end of the file")
        let hostile = Self.transcript(Array(Self.documents[6].utf8), chunk: 4).last ?? ""
        #expect(hostile.hasPrefix("error line 2: control character 0x1B") && hostile.contains("lat=") && !hostile.contains("\u{1B}"))
    }

    @Test("a split UTF-8 sequence is not an error, a broken one is, on its line")
    func utf8AcrossReads() {
        let ok = Array("<a>☺🛹</a>".utf8)
        for chunk in 1...5 { #expect(Self.transcript(ok, chunk: chunk).last == "end of document") }
        let broken = Array("<a>\n".utf8) + [0xE2, 0x98] + Array("</a>".utf8)
        for chunk in 1...5 { #expect(Self.transcript(broken, chunk: chunk).last?.hasPrefix("error line 2: invalid UTF-8") == true) }
    }

    @Test("the window stays bounded: a 3 MB document streamed in 64 KB reads never holds it whole")
    func boundedWindow() throws {
        let node = "<node id=\"1\" lat=\"43.7\" lon=\"7.4\"><tag k=\"a\" v=\"b\"/></node>\n"
        let doc = Array(("<osm>\n" + String(repeating: node, count: 3_000_000 / node.utf8.count) + "</osm>\n").utf8)
        var t = try XMLTokenizer(input: XMLArrayInput(doc), chunkBytes: 1 << 16)
        var starts = 0
        while let token = try t.next() { if token == .startElement { starts += 1 } }
        #expect(starts == 1 + 2 * (3_000_000 / node.utf8.count))
        #expect(t.windowCapacity <= 2 * (1 << 16) + XMLTokenizer.minReadRoom)
    }
}
