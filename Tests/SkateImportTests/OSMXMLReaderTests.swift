import Foundation
import Testing
import SkateCore
import SkateImport
import SkateTestSupport

/// Collects everything a reader delivers, for small hand-written documents.
struct OSMCollector: OSMHandler {
    var nodes: [(id: Int64, lat: Double, lon: Double, tags: OSMTags)] = []
    var ways: [(id: Int64, refs: [Int64], tags: OSMTags)] = []
    var relations: [(id: Int64, members: [OSMMember], tags: OSMTags)] = []
    var bbox: BoundingBox?
    var timestamp: String?
    var headers = 0

    mutating func header(bbox: BoundingBox?, timestamp: String?) { headers += 1; self.bbox = bbox; self.timestamp = timestamp }
    mutating func node(id: Int64, lat: Double, lon: Double, tags: OSMTags) { nodes.append((id, lat, lon, tags)) }
    mutating func way(id: Int64, refs: [Int64], tags: OSMTags) { ways.append((id, refs, tags)) }
    mutating func relation(id: Int64, members: [OSMMember], tags: OSMTags) { relations.append((id, members, tags)) }
}

@Suite("OSM XML reader")
struct OSMXMLReaderTests {
    static func read(_ xml: String, name: String = "doc.osm") throws -> OSMCollector {
        let dir = TestData.temporaryDirectory("osm-xml")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(name).path
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        var c = OSMCollector()
        try OSMReader.read(path: path, into: &c)
        return c
    }

    static func problem(_ xml: String) -> String {
        do {
            _ = try read(xml)
            Issue.record("expected an ImportError for: \(xml.prefix(80))")
            return ""
        } catch let e as ImportError {
            #expect(e.description.contains("doc.osm: "))
            return e.problem
        } catch {
            Issue.record("unexpected \(error)")
            return ""
        }
    }

    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- a comment with <tags> inside -->
        <osm version="0.6" generator="hand" timestamp="2024-01-02T03:04:05Z">
          <note>Unknown elements are ignored</note>
          <meta osm_base="ignored-when-timestamp-present"/>
          <bounds minlat="43.7" minlon="7.4" maxlat="43.8" maxlon="7.5"/>
          <node id="1" lat="43.7371175" lon="7.4229093" version="3" user="a &amp; b"/>
          <node id='2' lat='-0.5' lon='-7'>
            <tag k="name" v="Caf&#233; &quot;Le Bon&quot; &amp; l&apos;ami &lt;3 &gt;"/>
            <tag k="note" v="line&#10;break &#x263A;"/>
            <unknown a="b"><nested/></unknown>
          </node>
          <way id="10">
            <nd ref="1"/>
            <nd ref="2"/>
            <tag k="highway" v="footway"/>
            <tag k="surface" v="paving_stones"/>
          </way>
          <way id="11"/>
          <relation id="100">
            <member type="way" ref="10" role="outer"/>
            <member type="node" ref="2" role=""/>
            <member type="relation" ref="101"/>
            <tag k="type" v="multipolygon"/>
          </relation>
        </osm>
        """

    @Test func readsElementsTagsAndEntities() throws {
        let c = try Self.read(Self.document)
        #expect(c.headers == 1)
        #expect(c.timestamp == "2024-01-02T03:04:05Z")
        #expect(c.bbox == BoundingBox(minLon: 7.4, minLat: 43.7, maxLon: 7.5, maxLat: 43.8))
        #expect(c.nodes.count == 2)
        #expect(c.nodes[0].id == 1 && c.nodes[0].lat == 43.7371175 && c.nodes[0].lon == 7.4229093)
        #expect(c.nodes[0].tags.isEmpty)
        #expect(c.nodes[1].lat == -0.5 && c.nodes[1].lon == -7)
        #expect(c.nodes[1].tags["name"] == "Café \"Le Bon\" & l'ami <3 >")
        #expect(c.nodes[1].tags["note"] == "line\nbreak ☺")
        #expect(c.ways.count == 2)
        #expect(c.ways[0].refs == [1, 2])
        #expect(c.ways[0].tags.pairs.map(\.key) == ["highway", "surface"])
        #expect(c.ways[1].refs.isEmpty && c.ways[1].tags.isEmpty)
        #expect(c.relations.count == 1)
        #expect(c.relations[0].members == [
            OSMMember(kind: .way, ref: 10, role: "outer"),
            OSMMember(kind: .node, ref: 2, role: ""),
            OSMMember(kind: .relation, ref: 101, role: ""),
        ])
        #expect(c.relations[0].tags["type"] == "multipolygon")
    }

    @Test func parsesCoordinatesLikeTheStandardLibrary() throws {
        let values = ["43.7371175", "-0.0000001", "7.4", "180", "-179.9999999", "0", "12.345678901234567", "1e-3", "+5.25"]
        let xml = "<osm>" + values.enumerated().map { "<node id=\"\($0.offset)\" lat=\"0\" lon=\"\($0.element)\"/>" }.joined() + "</osm>"
        let c = try Self.read(xml)
        #expect(c.nodes.map(\.lon) == values.map { Double($0)! })
    }

    @Test func headerWithoutBoundsOrElements() throws {
        let c = try Self.read("<osm version=\"0.6\"></osm>")
        #expect(c.headers == 1)
        #expect(c.bbox == nil && c.timestamp == nil)
        #expect(c.nodes.isEmpty)
    }

    @Test func malformedDocumentsFailWithALine() {
        #expect(Self.problem("<osm>\n<node id=\"1\" lat=\"1\" lon=\"2\">\n").contains("not closed"))
        #expect(Self.problem("<osm>\n<way id=\"1\">\n</node>\n</osm>").contains("line 3"))
        #expect(Self.problem("<osm>\n<node id=\"1\" lat=\"x\" lon=\"2\"/>\n</osm>").contains("not a number"))
        #expect(Self.problem("<osm><node id=\"1\" lon=\"2\"/></osm>").contains("without lat"))
        #expect(Self.problem("<osm><node lat=\"1\" lon=\"2\"/></osm>").contains("without id"))
        #expect(Self.problem("<osm><node id=\"1\" lat=\"91\" lon=\"2\"/></osm>").contains("out of range"))
        #expect(Self.problem("<html><body/></html>").contains("expected <osm>"))
        #expect(Self.problem("<osm><node id=\"1\" lat=\"1\" lon=\"2\"><tag k=\"a\" v=\"&bogus;\"/></node></osm>").contains("entity"))
        #expect(Self.problem("<osm><node id=\"1\" lat=\"1\" lon=\"2\"><tag k=\"a\" v=\"oops").contains("truncated"))
        #expect(Self.problem("<osm><node id=\"1\" lat=1 lon=\"2\"/></osm>").contains("unquoted"))
        #expect(Self.problem("<osm><relation id=\"1\"><member type=\"area\" ref=\"1\"/></relation></osm>").contains("unknown type"))
        #expect(Self.problem("<osm><way id=\"1\"><node id=\"2\" lat=\"1\" lon=\"1\"/></way></osm>").contains("inside"))
        #expect(Self.problem("<osm></osm></osm>").contains("closes nothing"))
    }

    @Test func largeDocumentStreamsAcrossBufferRefills() throws {
        // ~12 MB, beyond Foundation's 10 MB XMLParser(data:) limit and the reader's 1 MB chunks;
        // long values make tags straddle chunk boundaries.
        let value = String(repeating: "x", count: 200)
        var xml = "<osm>\n"
        let count = 40_000
        for i in 1...count {
            xml += "<node id=\"\(i)\" lat=\"\(Double(i % 900) / 10)\" lon=\"7.5\"><tag k=\"v\" v=\"\(value)\"/></node>\n"
        }
        xml += "</osm>\n"
        #expect(xml.utf8.count > 10_000_000)
        let c = try Self.read(xml)
        #expect(c.nodes.count == count)
        #expect(c.nodes.allSatisfy { $0.tags["v"]?.count == 200 })
        #expect(c.nodes.last?.lat == Double(count % 900) / 10)
    }
}
