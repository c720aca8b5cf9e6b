import ArgumentParser
import Foundation
import SkateRide

/// `skateroute roughness FILE`: the 10 Hz roughness series and class histogram of a motion file.
struct RoughnessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roughness",
        abstract: "Measure surface roughness from a motion file (CSV or NDJSON).",
        discussion: """
        Prints the RMS vertical vibration (g) every 100 ms over 400 ms windows, its class \
        (butter < 0.05 ≤ okay < 0.12 ≤ meh < 0.20 ≤ crusty), shock windows (tricks, landings), \
        seconds per class and the robust (median) figure. Needs ≥ 40 Hz input; 100 Hz is best.
        """
    )

    @Argument(help: "Motion file: CSV (t,ax,ay,az[,gx,gy,gz]) or NDJSON.") var file: String
    @Option(help: "Input sampling rate in Hz (default: estimated from the timestamps).") var rate: Double?
    @Option(help: "Units when the file declares none: g or m/s^2.") var units: String?
    @Flag(help: "Print JSON (sorted keys) instead of text.") var json = false
    @Flag(help: "Leave out the 10 Hz series (summary and histogram only).") var summary = false

    func run() throws {
        if let r = rate, !(r.isFinite && r > 0) { throw fail("--rate must be a positive number of Hz, got \(r)") }
        var unit: MotionUnits?
        if let u = units {
            guard let parsed = MotionUnits(parsing: u) else { throw fail("--units must be g or m/s^2, got '\(u)'") }
            unit = parsed
        }
        let report: RoughnessReport
        do {
            report = try RoughnessReport.make(path: file, sampleRate: rate, units: unit)
        } catch let e as MotionError {
            throw fail(e.description)
        } catch let e as RoughnessReportError {
            throw fail(e.description)
        }
        if json {
            var r = report
            if summary { r.series = [] }
            print(try r.json(), terminator: "")
        } else {
            print(report.text(includeSeries: !summary), terminator: "")
        }
    }
}
