import Foundation
import SkateCore

/// Opens the terminal UI on `map` and runs until the user quits or a signal arrives; the
/// terminal is restored on every exit path.
/// - Parameters:
///   - environment: where colour and locale settings are read (`NO_COLOR`, `COLORTERM`,
///     `TERM`, `LC_ALL`/`LC_CTYPE`/`LANG`).
///   - overlay: a route and markers to show on the map browser (fitted to it), or nil.
/// - Returns: how it ended (a signal → the caller may exit 128+signal).
/// - Throws: `TUIError` when stdin is not a terminal or `TERM` is unusable.
@discardableResult
public func runTUI(map: SkateMap, environment: [String: String] = ProcessInfo.processInfo.environment,
                   overlay: RouteOverlay? = nil) throws -> TUIExit {
    let theme = Theme.detect(environment: environment)
    let terminal = try NcursesTerminal.openInteractive()
    defer { terminal.close() }
    let app = TUIApp(map: map, theme: theme, initialOverlay: overlay)
    let clock = ContinuousClock()
    let t0 = clock.now
    return AppLoop.run(app: app, terminal: terminal, now: {
        let d = clock.now - t0
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    })
}
