import Testing
import SkateCore
import SkateImport
import SkateTestSupport

@Suite("OSM readers on real extracts", .enabled(if: TestData.available, TestData.skip))
struct OSMReaderRealDataTests {
    /// Monaco per SOURCE.txt (osmium fileinfo -e).
    static let monacoNodes = 41_530, monacoWays = 6_212, monacoRelations = 348, monacoHighways = 3_636

    @Test func monacoPBFCountsAndHeader() throws {
        var d = OSMDigest()
        try OSMReader.read(path: TestData.monacoPBF, into: &d)
        #expect(d.nodes == Self.monacoNodes)
        #expect(d.ways == Self.monacoWays)
        #expect(d.relations == Self.monacoRelations)
        #expect(d.highways == Self.monacoHighways)
        #expect(d.orderViolations == 0)
        #expect(d.headerCalls == 1)
        #expect(d.timestamp == "2026-07-10T20:21:01Z")
        let box = try #require(d.bbox)
        #expect(abs(box.minLon - 7.408583) < 1e-9 && abs(box.minLat - 43.483817) < 1e-9)
        #expect(abs(box.maxLon - 7.595671) < 1e-9 && abs(box.maxLat - 43.75293) < 1e-9)
        // Every node lies in the data bbox osmium reports.
        for (_, (lat, lon, _)) in d.sampleNodes {
            #expect(lat > 43.30 && lat < 43.76 && lon > 7.20 && lon < 7.62)
        }
    }

    @Test func monacoXMLBzip2MatchesPBFElementForElement() throws {
        var pbf = OSMDigest(), xml = OSMDigest()
        try OSMReader.read(path: TestData.monacoPBF, into: &pbf)
        try OSMReader.read(path: TestData.monacoXMLBz2, into: &xml)
        #expect(xml.nodes == Self.monacoNodes)
        #expect(xml.ways == Self.monacoWays)
        #expect(xml.relations == Self.monacoRelations)
        #expect(xml.highways == Self.monacoHighways)
        #expect(xml.headerCalls == 1)
        #expect(xml.bbox == pbf.bbox)
        // Same ids, bit-identical coordinates, same refs, members, roles and tags (entities decoded).
        #expect(xml.nodeHash == pbf.nodeHash)
        #expect(xml.wayHash == pbf.wayHash)
        #expect(xml.relationHash == pbf.relationHash)
        #expect(xml.sampleWays.count == pbf.sampleWays.count)
        for (id, (lat, lon, tags)) in pbf.sampleNodes {
            let other = xml.sampleNodes[id]
            #expect(other?.0 == lat && other?.1 == lon, "node \(id) position")
            #expect(other?.2 == tags, "node \(id) tags")
        }
        for (id, (refs, tags)) in pbf.sampleWays {
            let other = xml.sampleWays[id]
            #expect(other?.0 == refs, "way \(id) refs")
            #expect(other?.1 == tags, "way \(id) tags")
        }
    }

    @Test func monacoKnownElements() throws {
        struct Probe: OSMHandler {
            var node21911886: OSMTags?
            var apostropheValues = 0
            var roles: Set<String> = []
            mutating func node(id: Int64, lat: Double, lon: Double, tags: OSMTags) {
                if id == 21_911_886 {
                    node21911886 = tags
                    #expect(lat == 43.7372395 && lon == 7.423497)
                }
                apostropheValues += tags.pairs.filter { $0.value.contains("'") }.count
            }
            mutating func way(id: Int64, refs: [Int64], tags: OSMTags) {
                apostropheValues += tags.pairs.filter { $0.value.contains("'") }.count
            }
            mutating func relation(id: Int64, members: [OSMMember], tags: OSMTags) {
                for m in members { roles.insert(m.role) }
            }
        }
        // The PBF only: the XML's elements are proven identical to it by the digest test.
        for path in [TestData.monacoPBF] {
            var p = Probe()
            try OSMReader.read(path: path, into: &p)
            #expect(p.node21911886?["highway"] == "crossing", "\(path)")
            #expect(p.node21911886?["crossing"] == "zebra", "\(path)")
            #expect(p.node21911886?.pairs.count == 4, "\(path)")
            #expect(p.apostropheValues > 100, "\(path): &apos; decoded")
            #expect(p.roles.contains("outer") && p.roles.contains("inner"), "\(path)")
        }
    }

    @Test func heidelbergPBFCounts() throws {
        let counts = try OSMReader.countElements(path: TestData.heidelbergPBF)
        #expect(counts.nodes == 221_009)
        #expect(counts.ways == 31_619)
        #expect(counts.relations == 1_700)
        var c = OSMElementCounter()
        try OSMReader.read(path: TestData.heidelbergPBF, into: &c)
        #expect(c.timestamp == "2024-09-08T20:21:00Z")
    }

    @Test func formatDetection() throws {
        #expect(try OSMReader.detectFormat(path: TestData.monacoPBF) == .pbf)
        #expect(try OSMReader.detectFormat(path: TestData.monacoXMLBz2) == .xmlBzip2)
    }
}

extension OSMReaderRealDataTests {
    @Test func sampledWaysArePresent() throws {
        var d = OSMDigest()
        try OSMReader.read(path: TestData.monacoPBF, into: &d)
        for id in OSMDigest.sampleWayIds { #expect(d.sampleWays[id] != nil, "way \(id)") }
        #expect(d.sampleWays[4_097_656]?.0.count ?? 0 >= 2)
    }
}
