#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SkateCore
import SystemPackage

/// Reads GPX 1.0 and 1.1 files: any namespace prefix or none, several tracks and segments,
/// `<rte>/<rtept>` routes, a UTF-8 BOM, missing elevation, fractional-second and offset times.
/// Waypoints (`<wpt>`) are not fixes and are ignored.
///
/// Parses with the small `XMLPullTokenizer` rather than Foundation's `XMLParser`, whose module
/// links libxml2 and through it the system ICU (~30 MB of data) and liblzma into every process
/// that links this module, which costs start-up time on every `skateroute` command.
public struct GPXReader: Sendable {
    /// What to do when a fix's time is earlier than the one before it.
    public enum BackwardTimePolicy: Sendable {
        /// Start a new segment at the fix (nothing is lost; each segment stays in time order).
        case split
        /// Drop fixes until the time is again at or after the last kept fix.
        case drop
    }

    /// Largest GPX file read, in bytes: a week of 1 Hz fixes with extensions is ~150 MB, so a
    /// bigger file is not a ride, and reading it whole would only exhaust memory.
    public static let maxFileBytes = 256 << 20

    /// Most points (track and route points, valid or not) a GPX may hold: a week of 1 Hz fixes
    /// is 604,800, so a million is no single ride, and keeping more would only fill memory. The
    /// reader stops and refuses at the first point past it, without reading the rest.
    public static let defaultMaxPoints = 1_000_000

    /// The point limit this reader applies (`defaultMaxPoints`; tests lower it).
    public var maxPoints = GPXReader.defaultMaxPoints

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
    /// - Throws: `GPXError` naming the file: unreadable (or over `maxFileBytes`), malformed XML
    ///   (with its line), no track points, or missing times without an assumed speed.
    public func read(path: String) throws -> GPXTrack {
        if let v = assumedSpeedKmh, !(v > 0 && v.isFinite) { throw GPXError.badAssumedSpeed(v) }
        // Streamed a chunk at a time (issue 29 row 9): never held whole, and a file past the
        // point limit is refused where the limit is reached.
        let fd: Int32
        do {
            fd = try FileBytes.openChecked(path: path, maxBytes: Self.maxFileBytes)
        } catch {
            switch error {
            case .notFound: throw GPXError.unreadable(path: path, reason: "no such file")
            case let .unreadable(reason): throw GPXError.unreadable(path: path, reason: reason)
            case let .tooLarge(size):
                throw GPXError.unreadable(path: path, reason: "\(size >> 20) MB is over the \(Self.maxFileBytes >> 20) MB limit for a GPX ride")
            }
        }
        defer { close(fd) }
        // A file with more point tags than the limit is refused before it is parsed: counting
        // `<trkpt`/`<rtept` (memchr) reads a 186 MB file in a fraction of the time parsing takes.
        // Prefixed tags (`<gpx:trkpt`) are not counted here; the parse counts them.
        if Self.pointTags(fd: fd) > maxPoints { throw GPXError.tooManyPoints(path: path, limit: maxPoints) }
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw GPXError.unreadable(path: path, reason: "cannot read it twice (not a regular file)") }
        var collector = GPXCollector()
        var overLimit = false
        do throws(XMLSyntaxError) {
            var tokenizer = try XMLPullTokenizer(input: XMLFileInput(fd: fd, maxBytes: Self.maxFileBytes))
            events: while let event = try tokenizer.next() {
                switch event {
                case let .startElement(name, attributes):
                    if collector.atRoot, XMLName.local(name) != "gpx" {
                        throw XMLSyntaxError(line: tokenizer.eventLine, message: "root element is <\(name.prefix(40))>, not <gpx>")
                    }
                    collector.start(name, attributes)
                case let .text(text):
                    collector.characters(text)
                case let .endElement(name):
                    collector.end(name)
                    if collector.pointsSeen > maxPoints { overLimit = true; break events }
                }
            }
        } catch {
            throw GPXError.malformed(path: path, line: error.line, reason: error.message)
        }
        if overLimit { throw GPXError.tooManyPoints(path: path, limit: maxPoints) }
        return try finish(collector, path: path)
    }

    /// `<trkpt` and `<rtept` start tags in the file behind `fd` (from its current offset): each
    /// `<` found with memchr, its next five bytes compared, in 1 MiB chunks that carry a tag's
    /// length over; 0 when the file cannot be read (the parse then says why).
    static func pointTags(fd: Int32) -> Int {
        // No larger than the file: a zeroed 1 MiB buffer for a 25 KB ride costs 256 page faults.
        var info = stat()
        let size = fstat(fd, &info) == 0 ? Int(info.st_size) : 1 << 20
        let chunk = max(4096, min(1 << 20, size)), carry = 5
        var buffer = [UInt8](repeating: 0, count: chunk + carry)
        // The letters of `trkpt` and `rtept`.
        let t = (t: UInt8(ascii: "t"), r: UInt8(ascii: "r"), k: UInt8(ascii: "k"), e: UInt8(ascii: "e"), p: UInt8(ascii: "p"))
        var kept = 0, count = 0
        while true {
            let start = kept
            guard let n = try? buffer.withUnsafeMutableBytes({
                try FileDescriptor(rawValue: fd).read(into: UnsafeMutableRawBufferPointer(rebasing: $0[start..<(start + chunk)]))
            }) else { return 0 }
            if n == 0 { break }
            let end = kept + n
            // Every `<` whose five following bytes are in the buffer; one closer to the end waits
            // for the next chunk (it is among the bytes carried over).
            let last = end - carry
            buffer.withUnsafeBytes { raw in
                let base = raw.baseAddress!
                var i = 0
                while i < last, let hit = memchr(base + i, Int32(UInt8(ascii: "<")), last - i) {
                    // Raw bytes, no slices: this runs once per `<`, ~6 per point.
                    let p = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self)
                    if p[4] == t.p && p[5] == t.t
                        && ((p[1] == t.t && p[2] == t.r && p[3] == t.k) || (p[1] == t.r && p[2] == t.t && p[3] == t.e)) {
                        count += 1
                    }
                    i = base.distance(to: UnsafeRawPointer(hit)) + 1
                }
            }
            kept = min(carry, end)
            buffer.withUnsafeMutableBytes { raw in _ = memmove(raw.baseAddress!, raw.baseAddress! + end - kept, kept) }
        }
        return count
    }

    // MARK: - Post-processing

    private func finish(_ c: GPXCollector, path: String) throws -> GPXTrack {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        var warnings: [String] = []
        if c.badPositions > 0 {
            warnings.append("\(file): skipped \(c.badPositions) point(s) with missing or out-of-range lat/lon (first at index \(c.firstBadPosition))")
        }
        if c.badTimes > 0 {
            warnings.append("\(file): \(c.badTimes) point(s) have an unreadable <time> (first at index \(c.firstBadTime)); treated as missing")
        }
        // A track wins over a route (a plan GPX has both: the route's turn points and the track's
        // geometry); a route is read only when there is no track.
        let hasTrack = c.segments.indices.contains { c.segmentIsRoute[$0] == false && !c.segments[$0].isEmpty }
        let source: GPXTrack.Source = hasTrack ? .track : .route
        var ignored = 0
        var segments: [[IndexedFix]] = []
        for (i, seg) in c.segments.enumerated() where !seg.isEmpty {
            if c.segmentIsRoute[i] == hasTrack { ignored += seg.count } else { segments.append(seg) }
        }
        if ignored > 0 {
            warnings.append("\(file): has a route (\(ignored) point(s)) and a track; replaying the track only")
        }
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
        var track = GPXTrack(name: c.name, segments: out, warnings: warnings)
        track.source = source
        track.ignoredPoints = ignored
        return track
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
    var buffer = [CChar](repeating: 0, count: 32)
    _ = buffer.withUnsafeMutableBufferPointer { p in withVaList([v]) { vsnprintf(p.baseAddress, p.count, "%.3g", $0) } }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// `s` without leading and trailing white space (Unicode White_Space; with `newlines` false,
/// line-break characters are kept, as Foundation's `.whitespaces` does).
func trimmedSpace(_ s: String, newlines: Bool = true) -> Substring {
    // Fast path: ASCII at both ends (nearly every GPX value) needs no Unicode properties.
    let utf8 = s.utf8
    var lo = utf8.startIndex, hi = utf8.endIndex
    func asciiBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || (newlines && c >= 0x0A && c <= 0x0D) }
    while lo < hi, utf8[lo] < 0x80, asciiBlank(utf8[lo]) { lo = utf8.index(after: lo) }
    while lo < hi, utf8[utf8.index(before: hi)] < 0x80, asciiBlank(utf8[utf8.index(before: hi)]) { hi = utf8.index(before: hi) }
    if lo == hi { return "" }
    if utf8[lo] < 0x80, utf8[utf8.index(before: hi)] < 0x80 { return s[lo..<hi] }
    return trimmedUnicodeSpace(s, newlines: newlines)
}

private func trimmedUnicodeSpace(_ s: String, newlines: Bool) -> Substring {
    func isTrimmed(_ u: Unicode.Scalar) -> Bool {
        guard u.properties.isWhitespace else { return false }
        if newlines { return true }
        switch u.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return false
        default: return true
        }
    }
    let scalars = s.unicodeScalars
    guard let first = scalars.firstIndex(where: { !isTrimmed($0) }) else { return "" }
    let last = scalars.lastIndex(where: { !isTrimmed($0) })!
    return Substring(scalars[first...last])
}

/// Collects points from tokenizer events. Only `<time>`, `<ele>` that are direct children of a
/// point are read, so extension elements (e.g. GraphHopper's `<gh:time>`) never leak in.
struct GPXCollector {
    var segments: [[IndexedFix]] = []
    /// Parallel to `segments`: true for a `<rte>`'s points, false for a `<trkseg>`'s.
    var segmentIsRoute: [Bool] = []
    var name: String?
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

    /// True before the root element has started.
    var atRoot: Bool { depth == 0 }
    /// Track and route points closed so far (valid or not).
    var pointsSeen: Int { pointIndex }

    private var inRoute = false

    private mutating func openSegment() {
        segments.append([])
        segmentIsRoute.append(inRoute)
        segmentOpen = true
    }

    private static func number(_ attributes: [XMLAttribute], _ key: String) -> Double? {
        guard let a = attributes.first(where: { $0.name == key }) else { return nil }
        return Double(trimmedSpace(a.value, newlines: false))
    }

    mutating func start(_ elementName: String, _ attributes: [XMLAttribute]) {
        depth += 1
        let local = XMLName.local(elementName)
        if depth == 1 { return }  // <gpx>: the reader has checked the root's name
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
            inRoute = false
            segmentOpen = false
        case "trkseg":
            openSegment()
        case "rte":
            containerDepth = depth
            inRoute = true
            openSegment()
        case "trkpt", "rtept":
            pointDepth = depth
            pointLat = Self.number(attributes, "lat")
            pointLon = Self.number(attributes, "lon")
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

    mutating func characters(_ string: String) {
        if capture != nil { text += string }
    }

    mutating func end(_ elementName: String) {
        defer { depth -= 1 }
        let local = XMLName.local(elementName)
        if let field = capture, field == local {
            let value = trimmedSpace(text)
            switch field {
            case "time":
                if let t = ISO8601Time.parse(String(value)) { pointTime = t } else if !value.isEmpty { pointTimeBad = true }
            case "ele":
                if let e = Double(value), e.isFinite { pointEle = e }
            case "name":
                if !value.isEmpty { name = String(value) }
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
            inRoute = false
            segmentOpen = false
        default: break
        }
    }
}
