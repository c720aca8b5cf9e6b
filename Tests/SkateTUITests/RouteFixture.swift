import Foundation
import SkateCore
import SkateStore
import SkateTestSupport
@testable import SkateTUI

/// A tiny map drawn in ASCII (25 m per character) with two named places, compiled through the
/// real importer, and an app on it.
///
/// ```
/// A----B----C      A: Skatepark Nord (skatepark)
/// |         |      F: Place Sud (square)
/// D----E----F      the land falls 8 % eastward: braking zones on east-bound streets
/// ```
enum RouteFixture {
    static let art = """
    A----B----C
    |         |
    D----E----F
    """
    /// Eastward slope in percent (negative: downhill going east).
    static let slopePct = -8.0
    /// The lower row (Rue Basse) lies 50 m further south, where a degree of longitude is a
    /// little longer: the same drop read −7.99 % (caution) there against −8.00 % (braking) on
    /// Rue Haute, and the braking cost then chose the paving stones. A drop 0.1 % larger keeps
    /// both streets braking-grade (both show −8.0 %), so surface alone picks Rue Haute.
    static let lowerRowScale = 1.001

    // Immutable after first use; AsciiMap is a value type the compiler cannot prove Sendable.
    nonisolated(unsafe) static let ascii: AsciiMap = AsciiMap(art, ways: [
        ("ABC", ["highway": "residential", "name": "Rue Haute", "surface": "asphalt"]),
        ("ADEF", ["highway": "residential", "name": "Rue Basse", "surface": "paving_stones"]),
        ("CF", ["highway": "residential", "name": "Rue Est", "surface": "asphalt"]),
    ], places: [
        "A": ["name": "Skatepark Nord", "leisure": "skatepark"],
        "F": ["name": "Place Sud", "place": "square"],
    ], elevation: { x, north in 100 + x * slopePct / 100 * (north < -1 ? lowerRowScale : 1) })

    static var map: SkateMap { ascii.map }

    /// A fixed clock for store records.
    static let now = Date(timeIntervalSince1970: 1_777_640_000)

    /// An app without a store (reports say why they are not saved).
    static func app(theme: Theme = Theme(colorMode: .none, glyphMode: .unicode), zones: NoReportZones? = nil,
                    store: SkateStore? = nil, ridesDirectory: String = "/nonexistent-rides") -> TUIApp {
        let services = TUIServices(map: map, store: store, storeProblem: "no store in tests", ridesDirectory: ridesDirectory,
                                   zones: zones ?? NoReportZones(zones: []), now: { now })
        return TUIApp(map: map, theme: theme, services: services)
    }

    /// Feeds keys through `step` (update plus effects), returning the model and loop commands.
    static func press(_ app: TUIApp, _ keys: [Key], from model: AppModel) -> (AppModel, [AppCommand]) {
        var m = model
        var all: [AppCommand] = []
        for k in keys {
            let (n, c) = app.step(m, .key(k))
            m = n; all += c
        }
        return (m, all)
    }

    /// Keys typing `text`.
    static func typing(_ text: String) -> [Key] { text.map { Key.char($0) } }
}
