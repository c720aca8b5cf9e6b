import Foundation
import Testing
import SkateCore
import SkateImport
import SkateTestSupport

/// Fuzz reproducers (issue 15, hardening 1 and 2) for the OSM readers: every decoded coordinate
/// is range-checked before a handler sees it, allocations are bounded by the file, and inputs
/// that are not regular files are refused with one line.
@Suite("Fuzz regression: OSM readers")
struct PBFCoordinateFuzzTests {
    /// Records every node position a reader delivers.
    struct Positions: OSMHandler {
        var nodes: [(Double, Double)] = []
        mutating func header(bbox: BoundingBox?, timestamp: String?) {}
        mutating func node(id: Int64, lat: Double, lon: Double, tags: OSMTags) { nodes.append((lat, lon)) }
        mutating func way(id: Int64, refs: [Int64], tags: OSMTags) {}
        mutating func relation(id: Int64, members: [OSMMember], tags: OSMTags) {}
    }

    static func read(_ path: String) -> (Positions, ImportError?) {
        var h = Positions()
        do { try OSMReader.read(path: path, into: &h) } catch let e as ImportError { return (h, e) } catch {
            Issue.record("expected ImportError, got \(error)")
        }
        return (h, nil)
    }

    @Test func intactDenseFileReadsAllNodes() throws {
        let dir = FuzzFiles.folder("pbf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try FuzzFiles.write(FuzzFiles.densePBF(count: 4, spareLatitudes: 2).bytes, "ok.osm.pbf", in: dir)
        let (h, error) = Self.read(path)
        #expect(error == nil, "\(String(describing: error))")
        #expect(h.nodes.count == 4)
        #expect(h.nodes.allSatisfy { abs($0.0 - 43.73) < 0.01 && abs($0.1 - 7.42) < 0.01 })
    }

    /// Two flipped continuation bits in the packed latitudes: the varints merge into positions
    /// millions of degrees off the globe, which the compiler would size its grids by.
    @Test func flippedContinuationBitsInDenseLatitudesAreRefused() throws {
        let dir = FuzzFiles.folder("pbf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try FuzzFiles.write(FuzzFiles.pbfWithFlippedLatitudeBits(), "flipped.osm.pbf", in: dir)
        let (h, error) = Self.read(path)
        let e = try #require(error, "a corrupt latitude must be an error")
        #expect(e.problem.contains("out of range"), "\(e.problem)")
        #expect(!e.description.contains("\n"))
        #expect(h.nodes.allSatisfy { abs($0.0) <= 90 && abs($0.1) <= 180 }, "an off-globe node reached the handler")
    }

    /// A block that claims more bytes than the file holds fails before any allocation of that size.
    @Test func blockSizeBeyondTheFileIsRefusedBeforeAllocating() throws {
        let dir = FuzzFiles.folder("pbf")
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = FuzzFiles.densePBF().bytes
        // The OSMHeader block's BlobHeader: [len:4] 0A 09 "OSMHeader" 18 <datasize varint>.
        let sizeAt = 4 + 2 + 9 + 1
        #expect(bytes[sizeAt - 1] == 0x18)
        bytes.replaceSubrange(sizeAt..<(sizeAt + 1), with: FuzzFiles.varint(30 << 20))  // 30 MiB, under the 32 MiB cap
        bytes[3] = UInt8(truncatingIfNeeded: Int(bytes[3]) + FuzzFiles.varint(30 << 20).count - 1)  // the header grew
        let path = try FuzzFiles.write(bytes, "claims.osm.pbf", in: dir)
        let (_, error) = Self.read(path)
        let e = try #require(error)
        #expect(e.problem.contains("claims") && e.problem.contains("left"), "\(e.problem)")
    }

    @Test func devicesAndFIFOsAreRefusedWithOneLine() throws {
        let dir = FuzzFiles.folder("pbf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, zero) = Self.read("/dev/zero")
        #expect(zero?.problem.contains("character device") == true, "\(String(describing: zero))")
        let fifo = try #require(FuzzFiles.fifo("input.osm.pbf", in: dir))
        let (_, pipe) = Self.read(fifo)
        #expect(pipe?.problem.contains("FIFO") == true, "\(String(describing: pipe))")
        for path in ["/dev/zero", fifo] {
            #expect(throws: ImportError.self) { _ = try DEMReader.load(path: path) }
        }
    }

    /// OSM XML errors quote the input; control bytes and escape sequences never survive.
    @Test func xmlErrorsCarryNoControlBytes() throws {
        let dir = FuzzFiles.folder("xml")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try FuzzFiles.write(FuzzFiles.hostileOSMXML, "title.osm", in: dir)
        let (_, error) = Self.read(path)
        let e = try #require(error)
        #expect(!e.problem.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(e.problem.debugDescription)")
        #expect(!e.problem.contains("pwned"), "the OSC string's text survived: \(e.problem)")
    }
}
