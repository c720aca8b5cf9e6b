import Foundation
import SkateCore
@testable import SkateStore
import SkateTestSupport

/// A store in a fresh temporary directory, removed on deinit.
final class TempStore {
    let dir: URL
    let store: SkateStore

    init() throws {
        dir = TestData.temporaryDirectory("skatestore")
        store = try SkateStore(dataDir: dir)
    }

    deinit { try? FileManager.default.removeItem(at: dir) }
}

/// A fixed test epoch: 2026-05-01T12:00:00Z.
let t0 = Date(timeIntervalSince1970: 1_777_636_800)
let minute: TimeInterval = 60
let hour: TimeInterval = 3_600
let day: TimeInterval = 86_400

/// The two-route square both learning suites ride: A–B straight (225 m) or round by C and D.
enum SquareMap {
    static let art = """
    A--------B
    |        |
    |        |
    C--------D
    """
    static let street: [String: String] = ["highway": "residential", "surface": "asphalt"]

    static func make() -> AsciiMap { AsciiMap(art, ways: [("AB", street), ("ACDB", street)]) }
}
