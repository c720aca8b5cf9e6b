/// Concrete-typed `contains` and `joined` for the plan path. The standard library's generic
/// versions either build a `Dictionary<Character, Int>` (`String.contains(_:)`'s substring
/// searcher) or look an associated type up at run time (`joined(separator:)` on `[String]`); the
/// first use of either in a process scans every protocol conformance in the binary (gdb on
/// `swift_conformsToProtocol…`; see `IntKeyedTable`). Foundation's versions, which these calls
/// resolved to before, are CoreFoundation-backed (see `PrintfArgument`).
extension String {
    /// Whether `needle` occurs in the text, compared byte for byte in UTF-8 (an empty needle
    /// occurs everywhere).
    public func containsText(_ needle: String) -> Bool {
        let hay = Array(utf8), pat = Array(needle.utf8)
        guard !pat.isEmpty else { return true }
        guard pat.count <= hay.count else { return false }
        var i = 0
        while i + pat.count <= hay.count {
            if hay[i] == pat[0] {
                var k = 1
                while k < pat.count && hay[i + k] == pat[k] { k += 1 }
                if k == pat.count { return true }
            }
            i += 1
        }
        return false
    }
}

extension Array where Element == String {
    /// `joined(separator:)`, built by hand.
    public func joinedText(separator: String) -> String {
        var out = ""
        for (i, s) in enumerated() {
            if i > 0 { out += separator }
            out += s
        }
        return out
    }
}
