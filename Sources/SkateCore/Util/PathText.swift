/// Path-string operations NSString used to provide (`lastPathComponent`,
/// `deletingPathExtension`, `appendingPathComponent`, `deletingLastPathComponent`), with the
/// same results on the paths this project builds; NSString is CoreFoundation-backed (see
/// `PrintfArgument`).
public enum PathText {
    /// The last component, ignoring trailing slashes ("/a/b/" → "b"; "/" → "/").
    public static func lastComponent(_ path: String) -> String {
        let trimmed = stripTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The path without its last component's extension ("a/b.csv" → "a/b"; ".hidden" stays).
    public static func deletingExtension(_ path: String) -> String {
        let trimmed = stripTrailingSlashes(path)
        let name = lastComponent(trimmed)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return trimmed }
        let dropCount = name.distance(from: dot, to: name.endIndex)
        return String(trimmed.dropLast(dropCount))
    }

    /// `path` + "/" + `component` as NSString joined them: no slash added after a trailing one,
    /// `component` alone for an empty `path`, `path` for an empty `component`, nothing else
    /// normalised (the ride index keys rides by these paths, so they must not change).
    public static func appending(_ path: String, _ component: String) -> String {
        if component.isEmpty { return path }
        if path.isEmpty { return component }
        return path.hasSuffix("/") ? path + component : path + "/" + component
    }

    /// The path without its last component ("/a/b" → "/a"; "b" → ""; "/a" → "/").
    public static func deletingLastComponent(_ path: String) -> String {
        let trimmed = stripTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return stripTrailingSlashes(String(trimmed[..<slash]))
    }

    private static func stripTrailingSlashes(_ path: String) -> String {
        var s = Substring(path)
        while s.count > 1, s.hasSuffix("/") { s = s.dropLast() }
        return String(s)
    }
}
