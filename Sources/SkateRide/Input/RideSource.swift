import FoundationEssentials
import Glibc
import SkateCore

/// A ride to replay: its fixes (in memory; a GPX is small) and its motion file (streamed), from a
/// ride folder or a bare GPX file.
///
/// Time bases: fixes are seconds since 1970. Motion files may give seconds since 1970 too, or
/// seconds from the ride's start (what the synthesizer writes, to keep files small); motion
/// times below `relativeTimeLimit` are taken as relative to the first fix.
///
/// Backward time jumps (the GPX reader splits the track there): without motion, a later
/// segment that starts before the previous one ended is shifted to follow it one second later,
/// so nothing is lost; with motion the earlier-timed fixes are dropped so fixes and motion stay
/// aligned. Either way a warning names the jump.
public struct RideSource: Sendable {
    /// Motion times below this (s) are relative to the ride start (1e8 s after 1970 is 1973).
    public static let relativeTimeLimit: Double = 1e8
    /// Seconds after the previous segment's end at which a segment that jumped back by less than a
    /// second is replayed (1 ms: keeps order without inventing time).
    public static let subSecondShift: Double = 0.001

    public var fixes: [GPXFix]
    public var motionPath: String?
    public var motionUnits: MotionUnits?
    /// The manifest, when opened from a ride folder.
    public var manifest: RideManifest?
    /// The planned-route file named by the manifest, resolved.
    public var plannedRoutePath: String?
    /// A name for the ride (folder or file name without extension).
    public var name: String
    /// Repairs made while reading.
    public var warnings: [String]

    public init(fixes: [GPXFix], motionPath: String? = nil, motionUnits: MotionUnits? = nil, manifest: RideManifest? = nil,
                plannedRoutePath: String? = nil, name: String, warnings: [String] = []) {
        self.fixes = fixes; self.motionPath = motionPath; self.motionUnits = motionUnits; self.manifest = manifest
        self.plannedRoutePath = plannedRoutePath; self.name = name; self.warnings = warnings
    }

    /// Opens a ride folder (holding `ride.json`), a `ride.json`, or a GPX file.
    /// - Parameters:
    ///   - path: the ride.
    ///   - motion: a motion file overriding the manifest's.
    ///   - assumeSpeedKmh: speed to synthesise missing GPX times from.
    ///   - allowOutsidePaths: let a manifest name files outside its folder (absolute or `..`).
    /// - Throws: `RideFolderError`, `GPXError` or `MotionError`, each one line naming the file.
    public static func open(_ path: String, motion: String? = nil, assumeSpeedKmh: Double? = nil,
                            allowOutsidePaths: Bool = false) throws -> RideSource {
        var isDir = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw RideFolderError.notFound(path: path)
        }
        var gpxPath = path
        var motionPath = motion
        var manifest: RideManifest?
        var planned: String?
        var units: MotionUnits?
        var name = PathText.deletingExtension(PathText.lastComponent(path))
        if isDir || PathText.lastComponent(path) == RideManifest.fileName {
            let folder = try RideFolder.open(path, allowOutsidePaths: allowOutsidePaths)
            gpxPath = folder.gpxPath
            motionPath = motion ?? folder.motionPath
            manifest = folder.manifest
            planned = folder.plannedRoutePath
            units = folder.manifest.motionUnits
            name = (isDir ? path : folder.folder).split(separator: "/").last.map(String.init) ?? name
        }
        if let m = motionPath {
            do { try InputPath.checkRegularFile(m) } catch { throw MotionError.unreadable(path: m, reason: error.problem) }
        }
        let track = try GPXReader(assumedSpeedKmh: assumeSpeedKmh, backwardTime: .split).read(path: gpxPath)
        var warnings = track.warnings
        if track.source == .route {
            warnings.append("\(PathText.lastComponent(gpxPath)): no track; replaying its route's \(track.fixCount) point(s)")
        }
        let fixes = Self.ordered(track, hasMotion: motionPath != nil, file: PathText.lastComponent(gpxPath), warnings: &warnings)
        return RideSource(fixes: fixes, motionPath: motionPath, motionUnits: units, manifest: manifest,
                          plannedRoutePath: planned, name: name, warnings: warnings)
    }

    /// Fixes in replay order (see the type's notes on backward jumps).
    static func ordered(_ track: GPXTrack, hasMotion: Bool, file: String, warnings: inout [String]) -> [GPXFix] {
        var out: [GPXFix] = []
        out.reserveCapacity(track.fixCount)
        var lastT = -Double.infinity
        // Segments that do not overlap in time are put in time order (a file whose second half was
        // recorded first); overlapping ones are shifted or dropped below.
        var segments = track.segments.filter { $0.fixes.first?.time != nil }
        let spans = segments.map { ($0.fixes.first!.time!, $0.fixes.last?.time ?? $0.fixes.first!.time!) }
        let order = spans.indices.sorted { spans[$0].0 < spans[$1].0 }
        let disjoint = zip(order, order.dropFirst()).allSatisfy { spans[$0].1 < spans[$1].0 }
        if disjoint && order != Array(spans.indices) {
            segments = order.map { segments[$0] }
            warnings.append("\(file): \(segments.count) segments were out of time order; replayed in time order (nothing dropped)")
        }
        for (k, seg) in segments.enumerated() {
            guard let first = seg.fixes.first?.time else { continue }
            var shift = 0.0
            if first < lastT {
                if hasMotion {
                    let kept = seg.fixes.filter { ($0.time ?? -.infinity) >= lastT }
                    warnings.append("\(file): segment \(k + 1) starts \(Int((lastT - first).rounded())) s before the previous one ended; dropped \(seg.fixes.count - kept.count) fix(es) to stay aligned with the motion")
                    out.append(contentsOf: kept)
                    if let l = kept.last?.time { lastT = l }
                    continue
                }
                // A jump back of a second or more: the segment follows one second later. A
                // sub-second one (times printed with fractions that disagree) follows at once:
                // an invented second would turn the segment's first metres into a speed.
                let back = lastT - first
                shift = back + (back >= 1 ? 1 : Self.subSecondShift)
                warnings.append("\(file): time jumps back " + String(printf: "%.3g", back) + " s at segment \(k + 1); replayed after the previous segment (shifted +" + String(printf: "%.3g", shift) + " s)")
            }
            for f in seg.fixes {
                guard let t = f.time else { continue }
                var g = f
                g.time = t + shift
                out.append(g)
                lastT = t + shift
            }
        }
        return out
    }

    /// Streams every input in time order (fixes first on equal times) without holding the motion.
    /// - Throws: `MotionError` naming the motion file.
    public func forEachInput(_ body: (RideInput) -> Void) throws {
        var i = 0
        let fixes = self.fixes
        if let mp = motionPath {
            let t0 = fixes.first?.time ?? 0
            var offset: Double?
            try MotionReader(defaultUnits: motionUnits).forEachSample(path: mp) { s in
                if offset == nil { offset = (s.t < Self.relativeTimeLimit && t0 >= Self.relativeTimeLimit) ? t0 : 0 }
                var m = s
                m.t += offset!
                while i < fixes.count, (fixes[i].time ?? 0) <= m.t { body(.fix(fixes[i])); i += 1 }
                body(.motion(m))
            }
        }
        while i < fixes.count { body(.fix(fixes[i])); i += 1 }
    }

    /// A stable id for the log: the name and the first fix time.
    public var rideId: String {
        let t = fixes.first?.time ?? 0
        return "\(name)-\(Int(t))"
    }
}
