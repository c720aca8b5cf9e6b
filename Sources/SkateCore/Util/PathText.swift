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

    /// `path` + "/" + `component`, with one slash between them ("" + "x" → "x").
    public static func appending(_ path: String, _ component: String) -> String {
        if path.isEmpty { return component }
        if component.isEmpty { return stripTrailingSlashes(path) }
        let head = path.hasSuffix("/") ? String(path.dropLast()) : path
        let tail = component.hasPrefix("/") ? String(component.dropFirst()) : component
        return head + "/" + tail
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
