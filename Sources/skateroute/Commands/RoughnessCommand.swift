import ArgumentParser
import FoundationEssentials
import Glibc
import SkateRide
import SkateCore

/// `skateroute roughness FILE`: the 10 Hz roughness series and class histogram of a motion file.
struct RoughnessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roughness",
        abstract: "Measure surface roughness from a motion file (CSV or NDJSON).",
        discussion: """
        Prints the RMS vertical vibration (g, 4–40 Hz) every 100 ms over 400 ms windows, its class \
        (butter < 0.05 ≤ okay < 0.12 ≤ meh < 0.20 ≤ crusty), events (short transients: potholes, \
        bumps, kerbs, slab joints, tricks; a fitted 15 ms strike ≥ 1 g, the same at every rate) with \
        their time and size, events per minute \
        (and per 100 m with --speed), seconds per class and the robust (median) figure, plus named \
        warnings about the input (stuck axes, low effective rate, gravity axis, gaps). Needs ≥ 40 Hz \
        input. --evaluate DIR measures a labelled folder (one sub-folder per class) instead.
        """
    )

    @Argument(help: "Motion file: CSV (t,ax,ay,az[,gx,gy,gz]), NDJSON, or a headerless 7-column e-scooter window.", completion: .file()) var file: String?
    @Option(help: "Ground speed in m/s: normalise the RMS to 4 m/s (RMS ∝ √v) and count events per 100 m.") var speed: Double?
    @Option(help: "Evaluate a labelled folder (one sub-folder per class): per-class medians and AUCs beside the naive baseline.") var evaluate: String?
    @Option(help: "With --evaluate: the classes in report order, comma-separated (default: every sub-folder by name).") var classes: String?
    @Option(help: "Input sampling rate in Hz (default: estimated from the timestamps).") var rate: Double?
    @Option(help: "Units when the file declares none: g or m/s^2.") var units: String?
    @Flag(help: "Print JSON (sorted keys) instead of text.") var json = false
    @Option(help: "With --evaluate: also score the first two classes leaving one recording day out (dated files), resampled to this many Hz (e.g. 50); 0 keeps the recorded rate.") var dayOut: Double?
    @Flag(help: "Leave out the 10 Hz series (summary and histogram only).") var summary = false

    func run() throws {
        if let v = speed, !(v.isFinite && v > 0) { throw fail("--speed must be a positive number of m/s, got \(v)") }
        if let dir = evaluate {
            if file != nil { throw fail("give either a motion FILE or --evaluate DIR, not both") }
            var unit: MotionUnits?
            if let u = units {
                guard let parsed = MotionUnits(parsing: u) else { throw fail("--units must be g or m/s^2, got '\(u)'") }
                unit = parsed
            }
            let labels = classes.map { $0.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty } }
            do {
                let ev = try RoughnessEvaluation.evaluate(folder: dir, labels: labels, units: unit)
                print(json ? ev.json() : ev.text(), terminator: "")
                if let r = dayOut, !json, ev.labels.count >= 2 {
                    guard r == 0 || (r.isFinite && r >= RoughnessEngine.minimumSampleRate) else {
                        throw fail("--day-out must be 0 (recorded rate) or a rate of at least \(Int(RoughnessEngine.minimumSampleRate)) Hz")
                    }
                    let d = try DayOutEvaluation.evaluate(folder: dir, positive: ev.labels[0], negative: ev.labels[1], rate: r == 0 ? nil : r)
                    print(d.files.isEmpty ? "leave-one-day-out: no dated files (MM-DD-HHMMSS names) in \(ev.labels[0]) and \(ev.labels[1])" : d.text(), terminator: d.files.isEmpty ? "\n" : "")
                }
            } catch {
                throw fail(TerminalSafe.clean("\(error)"))
            }
            return
        }
        guard let file else { throw fail("give a motion file, or --evaluate DIR") }
        if let r = rate, !(r.isFinite && r > 0) { throw fail("--rate must be a positive number of Hz, got \(r)") }
        var unit: MotionUnits?
        if let u = units {
            guard let parsed = MotionUnits(parsing: u) else { throw fail("--units must be g or m/s^2, got '\(u)'") }
            unit = parsed
        }
        let report: RoughnessReport
        do {
            if ScooterWindow.matches(path: file) {
                // A headerless 7-column e-scooter window (time, gyro xyz, accel xyz in m/s²) at 200 Hz.
                report = try RoughnessReport.make(samples: ScooterWindow.load(path: file), file: file,
                                                  sampleRate: rate ?? ScooterWindow.sampleRate, speed: speed)
            } else {
                report = try RoughnessReport.make(path: file, sampleRate: rate, units: unit, speed: speed)
            }
        } catch let e as MotionError {
            throw fail(e.description)
        } catch let e as RoughnessReportError {
            throw fail(e.description)
        } catch let e as RoughnessError {
            throw fail("\(file): \(e.description)")
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
