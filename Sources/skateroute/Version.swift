import SkateCore
import SkateRide

/// What `skateroute --version` prints: the program's version, the map and ride-log formats this
/// build reads and writes, and how it was built.
enum SkateRouteVersion {
    /// The program's version (semantic versioning; bump with each release).
    static let version = "0.15.0"

    /// Debug or release: release builds are the ones whose timings the README quotes.
    static var configuration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    /// The compiler this binary was built with (major.minor, from `#if compiler`).
    static var compiler: String {
        #if compiler(>=6.3)
        "Swift 6.3+"
        #elseif compiler(>=6.2)
        "Swift 6.2"
        #elseif compiler(>=6.1)
        "Swift 6.1"
        #else
        "Swift 6.0"
        #endif
    }

    static var platform: String {
        #if os(Linux)
        let os = "Linux"
        #elseif os(macOS)
        let os = "macOS"
        #else
        let os = "unknown OS"
        #endif
        #if arch(x86_64)
        return os + " x86_64"
        #elseif arch(arm64)
        return os + " arm64"
        #else
        return os
        #endif
    }

    /// The `--version` text: one line, e.g.
    /// `skateroute 0.15.0 (map format 5, ride log schema 2; release build, Swift 6.3+, Linux x86_64)`.
    static var text: String {
        "skateroute \(version) (map format \(MapFormat.version), ride log schema \(RideLogHeader.currentSchema); "
            + "\(configuration) build, \(compiler), \(platform))"
    }
}
