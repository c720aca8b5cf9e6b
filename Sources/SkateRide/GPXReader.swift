import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import SkateCore

/// Reads GPX 1.0 and 1.1 files: any namespace prefix or none, several tracks and segments,
/// `<rte>/<rtept>` routes, a UTF-8 BOM, missing elevation, fractional-second and offset times.
/// Waypoints (`<wpt>`) are not fixes and are ignored.
public struct GPXReader: Sendable {
    /// What to do when a fix's time is earlier than the one before it.
    public enum BackwardTimePolicy: Sendable {
        /// Start a new segment at the fix (nothing is lost; each segment stays in time order).
        case split
        /// Drop fixes until the time is again at or after the last kept fix.
        case drop
    }

    /// Speed in km/h used to synthesise missing times from distance; nil means missing times are
    /// an error.
    public var assumedSpeedKmh: Double?
    /// Repair for backward time jumps.
    public var backwardTime: BackwardTimePolicy

    public init(assumedSpeedKmh: Double? = nil, backwardTime: BackwardTimePolicy = .split) {
        self.assumedSpeedKmh = assumedSpeedKmh
        self.backwardTime = backwardTime
    }

    /// Reads the GPX file at `path`.
    /// - Throws: `GPXError` naming the file: unreadable, malformed XML, no track points, or
    ///   missing times without an assumed speed.
    public func read(path: String) throws -> GPXTrack {
        if let v = assumedSpeedKmh, !(v > 0 && v.isFinite) { throw GPXError.badAssumedSpeed(v) }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue else {
            throw GPXError.unreadable(path: path, reason: "no such file")
        }
        guard FileManager.default.isReadableFile(atPath: path),
              let parser = XMLParser(contentsOf: URL(fileURLWithPath: path)) else {
            throw GPXError.unreadable(path: path, reason: "permission denied or unreadable")
        }
        let collector = GPXCollector()
        parser.delegate = collector
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if !ok {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "parse failed"
            throw GPXError.malformed(path: path, line: max(1, parser.lineNumber), reason: reason)
        }
        if !collector.sawGPXRoot {
            throw GPXError.malformed(path: path, line: 1, reason: "root element is not <gpx>")
        }
        return try finish(collector, path: path)
    }

    // MARK: - Post-processing

    private func finish(_ c: GPXCollector, path: String) throws -> GPXTrack {
        let file = (path as NSString).lastPathComponent
        var warnings: [String] = []
        if c.badPositions > 0 {
            warnings.append("\(file): skipped \(c.badPositions) point(s) with missing or out-of-range lat/lon (first at index \(c.firstBadPosition))")
        }
        if c.badTimes > 0 {
            warnings.append("\(file): \(c.badTimes) point(s) have an unreadable <time> (first at index \(c.firstBadTime)); treated as missing")
        }
        var segments = c.segments.filter { !$0.isEmpty }
        let total = segments.reduce(0) { $0 + $1.count }
        guard total > 0 else { throw GPXError.noTrackPoints(path: path) }

        let missing = segments.reduce(0) { $0 + $1.reduce(0) { $0 + ($1.fix.time == nil ? 1 : 0) } }
        if missing > 0 {
            guard let kmh = assumedSpeedKmh else {
                throw GPXError.missingTimes(path: path, missing: missing, total: total)
            }
            synthesiseTimes(&segments, metresPerSecond: kmh / 3.6)
            warnings.append("\(file): synthesised \(missing) of \(total) times from distance at \(formatNumber(kmh)) km/h")
        }

        var out: [GPXSegment] = []
        for seg in segments {
            var current: [GPXFix] = []
            current.reserveCapacity(seg.count)
            var dropRun: (first: Int, count: Int, worst: Double)?
            for p in seg {
                guard let t = p.fix.time, let last = current.last?.time, t < last else {
                    if let run = dropRun {
                        warnings.append("\(file): dropped \(run.count) point(s) from index \(run.first) whose time goes back up to \(formatNumber(run.worst)) s")
                        dropRun = nil
                    }
                    current.append(p.fix)
                    continue
                }
                let jump = t - last
                switch backwardTime {
                case .split:
                    warnings.append("\(file): time goes back \(formatNumber(-jump)) s at point index \(p.index) (\(ISO8601Time.format(t)) after \(ISO8601Time.format(last))); started a new segment")
                    out.append(GPXSegment(fixes: current))
                    current = [p.fix]
                case .drop:
                    if var run = dropRun {
                        run.count += 1
                        run.worst = max(run.worst, -jump)
                        dropRun = run
                    } else {
                        dropRun = (p.index, 1, -jump)
                    }
                }
            }
            if let run = dropRun {
                warnings.append("\(file): dropped \(run.count) point(s) from index \(run.first) whose time goes back up to \(formatNumber(run.worst)) s")
            }
            if !current.isEmpty { out.append(GPXSegment(fixes: current)) }
        }
        return GPXTrack(name: c.name, segments: out, warnings: warnings)
    }

    /// Fills missing times: points before the first timed one are back-filled from it, later
    /// ones get the previous point's time plus distance / speed (file order, across segments).
    private func synthesiseTimes(_ segments: inout [[IndexedFix]], metresPerSecond v: Double) {
        // Flattened walk with (segment, point) indices.
        var order: [(Int, Int)] = []
        for s in segments.indices { for p in segments[s].indices { order.append((s, p)) } }
        func fix(_ k: Int) -> GPXFix { segments[order[k].0][order[k].1].fix }
        func setTime(_ k: Int, _ t: Double) { segments[order[k].0][order[k].1].fix.time = t }
        let firstTimed = order.indices.first { fix($0).time != nil }
        var start = 0
        if let ft = firstTimed {
            // Back-fill before the first timed point.
            var t = fix(ft).time!
            var k = ft - 1
            while k >= 0 {
                t -= Geo.distance(fix(k).coordinate, fix(k + 1).coordinate) / v
                setTime(k, t)
                k -= 1
            }
            start = ft
        } else {
            setTime(0, 0)
        }
        var k = start + 1
        while k < order.count {
            if fix(k).time == nil {
                let prev = fix(k - 1)
                setTime(k, prev.time! + Geo.distance(prev.coordinate, fix(k).coordinate) / v)
            }
            k += 1
        }
    }
}

/// A fix with its index in file order (for warnings).
struct IndexedFix {
    var fix: GPXFix
    var index: Int
}

/// Formats a number of seconds or km/h compactly ("5395", "2.5").
func formatNumber(_ v: Double) -> String {
    if v == v.rounded() && abs(v) < 1e15 { return String(Int(v)) }
    return String(format: "%.3g", v)
}

/// The XMLParser delegate that collects points. Only `<time>`, `<ele>` that are direct children
/// of a point are read, so extension elements (e.g. GraphHopper's `<gh:time>`) never leak in.
final class GPXCollector: NSObject, XMLParserDelegate {
    var segments: [[IndexedFix]] = []
    var name: String?
    var sawGPXRoot = false
    var badPositions = 0
    var firstBadPosition = -1
    var badTimes = 0
    var firstBadTime = -1

    private var depth = 0
    private var pointDepth: Int?
    private var pointLat: Double?
    private var pointLon: Double?
    private var pointTime: Double?
    private var pointTimeBad = false
    private var pointEle: Double?
    private var pointIndex = 0
    private var containerDepth: Int?  // depth of the <trk>/<rte> whose <name> we may read
    private var capture: String?      // local name of the field being captured
    private var text = ""
    private var segmentOpen = false

    private static func localName(_ qName: String) -> Substring {
        if let colon = qName.lastIndex(of: ":") { return qName[qName.index(after: colon)...] }
        return Substring(qName)
    }

    private func openSegment() {
        segments.append([])
        segmentOpen = true
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        depth += 1
        let local = GPXCollector.localName(elementName)
        if depth == 1 {
            if local == "gpx" { sawGPXRoot = true }
            return
        }
        if let pd = pointDepth {
            if depth == pd + 1, local == "time" || local == "ele" {
                capture = String(local)
                text = ""
            }
            return
        }
        switch local {
        case "trk":
            containerDepth = depth
            segmentOpen = false
        case "trkseg":
            openSegment()
        case "rte":
            containerDepth = depth
            openSegment()
        case "trkpt", "rtept":
            pointDepth = depth
            pointLat = attributeDict["lat"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            pointLon = attributeDict["lon"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            pointTime = nil
            pointTimeBad = false
            pointEle = nil
        case "name":
            if let cd = containerDepth, depth == cd + 1, name == nil {
                capture = "name"
                text = ""
            }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if capture != nil { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        defer { depth -= 1 }
        let local = GPXCollector.localName(elementName)
        if let field = capture, field == local {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            switch field {
            case "time":
                if let t = ISO8601Time.parse(value) { pointTime = t } else if !value.isEmpty { pointTimeBad = true }
            case "ele":
                if let e = Double(value), e.isFinite { pointEle = e }
            case "name":
                if !value.isEmpty { name = value }
            default: break
            }
            capture = nil
            text = ""
            return
        }
        if let pd = pointDepth, depth == pd {
            let index = pointIndex
            pointIndex += 1
            pointDepth = nil
            if pointTimeBad {
                badTimes += 1
                if firstBadTime < 0 { firstBadTime = index }
            }
            guard let lat = pointLat, let lon = pointLon, lat.isFinite, lon.isFinite,
                  abs(lat) <= 90, abs(lon) <= 180 else {
                badPositions += 1
                if firstBadPosition < 0 { firstBadPosition = index }
                return
            }
            if !segmentOpen { openSegment() }
            segments[segments.count - 1].append(IndexedFix(
                fix: GPXFix(time: pointTime, coordinate: Coordinate(lat: lat, lon: lon), elevation: pointEle),
                index: index))
            return
        }
        switch local {
        case "trkseg":
            segmentOpen = false
        case "rte", "trk":
            if depth == containerDepth { containerDepth = nil }
            segmentOpen = false
        default: break
        }
    }
}
