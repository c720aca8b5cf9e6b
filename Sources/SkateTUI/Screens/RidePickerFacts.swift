import FoundationEssentials
import Glibc
import SkateCore
import SkateRide

/// The facts the replay picker shows for each ride: map, mode, distance, duration and date.
extension RidePicker {
    /// Fills `listing`'s map and mode from the manifest, and distance, duration and start time
    /// from its GPX (opened through `RideFolder`, so the manifest's path rules hold). A GPX that
    /// cannot be read leaves those nil: the row shows what is known.
    static func addFacts(_ listing: inout RideListing, manifest: RideManifest, folder: String) {
        listing.map = manifest.map.map { TerminalSafe.clean($0) }
        listing.mode = manifest.mode.map { TerminalSafe.clean($0) }
        guard let f = try? RideFolder.open(folder), let track = try? GPXReader().read(path: f.gpxPath) else { return }
        var metres = 0.0
        for seg in track.segments {
            for (a, b) in zip(seg.fixes, seg.fixes.dropFirst()) { metres += Geo.distance(a.coordinate, b.coordinate) }
        }
        listing.distance = metres
        let times = track.allFixes.compactMap(\.time)
        if let t0 = times.min(), let t1 = times.max() {
            listing.duration = t1 - t0
            listing.startTime = t0
        }
    }

    /// "2026-05-01 09:20" (UTC) for seconds since 1970.
    public static func date(_ t: Double) -> String {
        let iso = ISO8601Time.format(t)  // YYYY-MM-DDThh:mm:ssZ
        guard iso.count >= 16 else { return iso }
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5))
    }

    /// The columns after the title: map, mode, distance, duration, date (missing ones blank,
    /// so the columns line up from row to row).
    public static func columns(_ r: RideListing) -> [String] {
        [r.map ?? "", r.mode ?? "", r.distance.map { Format.distance($0) } ?? "",
         r.duration.map { Format.clock($0) } ?? "", r.startTime.map { date($0) } ?? ""]
    }
}
