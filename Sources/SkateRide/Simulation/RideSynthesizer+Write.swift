import FoundationEssentials
import Glibc
import SkateCore

extension RideSynthesizer {
    /// File names inside a synthesised ride folder.
    public static let gpxName = "ride.gpx"
    public static let motionName = "motion.csv"
    public static let planName = "plan.json"
    /// Bytes buffered before each append to the motion file.
    static let writeChunk = 1 << 16

    /// Synthesises a ride and writes the folder: `ride.gpx` (GPX 1.1 with times), `motion.csv`
    /// (`# units: g`, header `t,ax,ay,az`, t in seconds from the ride start), `plan.json` (the
    /// plan the rider was given) and `ride.json` (the manifest with the command).
    /// - Throws: routing and synthesis errors, or a `SynthError` naming a file that cannot be written.
    @discardableResult
    public static func write(planner: Planner, options: SynthOptions, folder: String, mapName: String, title: String?,
                             command: String) throws -> SynthRide {
        let fm = FileManager.default
        do { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw SynthError(message: "\(folder): cannot create the ride folder: \(ErrorText.describe(error))")
        }
        let motionPath = PathText.appending(folder, motionName)
        guard let handle = RawFile(writingTo: motionPath) else {
            throw SynthError(message: "\(motionPath): cannot create the motion file")
        }
        var buf: [UInt8] = []
        buf.reserveCapacity(writeChunk + 256)
        buf.append(contentsOf: Array("# units: g\n# synthetic skateboard motion, \(Int(options.motionRate)) Hz, t in seconds from the ride start\nt,ax,ay,az\n".utf8))
        let ride = try synthesize(planner: planner, options: options) { m in
            FixedDecimal.append(m.t, decimals: 2, to: &buf); buf.append(UInt8(ascii: ","))
            FixedDecimal.append(m.ax, decimals: 3, to: &buf); buf.append(UInt8(ascii: ","))
            FixedDecimal.append(m.ay, decimals: 3, to: &buf); buf.append(UInt8(ascii: ","))
            FixedDecimal.append(m.az, decimals: 3, to: &buf); buf.append(0x0A)
            if buf.count >= writeChunk { handle.write(buf); buf.removeAll(keepingCapacity: true) }
        }
        handle.write(buf)
        handle.close()
        let gpx = gpxText(ride.fixes, name: title ?? "synthetic ride")
        let planJSON = PlanFormats.json(ride.plan) + "\n"
        do {
            try Data(gpx.utf8).write(to: URL(fileURLWithPath: PathText.appending(folder, gpxName)))
            try Data(planJSON.utf8).write(to: URL(fileURLWithPath: PathText.appending(folder, planName)))
            let manifest = RideManifest(gpx: gpxName, motion: motionName, motionUnits: .g, plannedRoute: planName, title: title,
                                        map: mapName, mode: options.mode.rawValue, synthCommand: command, seed: options.seed)
            try manifest.write(toFolder: folder)
        } catch {
            throw SynthError(message: "\(folder): cannot write the ride files: \(ErrorText.describe(error))")
        }
        return ride
    }

    /// GPX 1.1 text of fixes (one track, one segment), positions to 7 decimals (1 cm).
    public static func gpxText(_ fixes: [GPXFix], name: String) -> String {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="skateroute synth" xmlns="http://www.topografix.com/GPX/1/1">
          <trk>
            <name>\(xmlEscape(name))</name>
            <trkseg>

        """
        var b: [UInt8] = []
        for x in fixes {
            b.removeAll(keepingCapacity: true)
            b.append(contentsOf: Array("      <trkpt lat=\"".utf8)); FixedDecimal.append(x.coordinate.lat, decimals: 7, to: &b)
            b.append(contentsOf: Array("\" lon=\"".utf8)); FixedDecimal.append(x.coordinate.lon, decimals: 7, to: &b)
            b.append(contentsOf: Array("\">".utf8))
            if let e = x.elevation { b.append(contentsOf: Array("<ele>".utf8)); FixedDecimal.append(e, decimals: 1, to: &b); b.append(contentsOf: Array("</ele>".utf8)) }
            if let t = x.time { b.append(contentsOf: Array("<time>\(ISO8601Time.format(t))</time>".utf8)) }
            b.append(contentsOf: Array("</trkpt>\n".utf8))
            out += String(decoding: b, as: UTF8.self)
        }
        out += "    </trkseg>\n  </trk>\n</gpx>\n"
        return out
    }

    static func xmlEscape(_ s: String) -> String {
        s.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
            .replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
    }
}
