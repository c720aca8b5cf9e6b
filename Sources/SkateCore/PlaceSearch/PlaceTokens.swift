/// Folding, tokenising and token scoring for `PlaceSearch`: accent- and case-insensitive words as
/// UTF-8 bytes, compared without allocating.
extension PlaceSearch {
    /// Score of a token that equals the query token.
    static let exactScore = 1.0
    /// Score of a name token that starts with the query token ("stad" → "stade").
    static let prefixScore = 0.85
    /// Score of a name token one edit away (typos) for tokens of 4+ letters.
    static let typoScore = 0.7
    /// Score when the query token appears inside a name token.
    static let infixScore = 0.5
    /// Words ignored when they appear in queries or names (French/Italian/English fillers).
    static let stopwords: [[UInt8]] = ["de", "du", "des", "la", "le", "les", "l", "d", "the", "of", "di", "el", "a", "et", "and"].map { Array($0.utf8) }
    /// Longest stopword in bytes (longer tokens skip the list).
    static let stopwordMaxLength = 3

    /// Lower-cases and strips accents and punctuation: "Stade Louis-II" → "stade louis ii".
    public static func fold(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if u.value < 0x80 {
                // ASCII fast path: most OSM names are mostly ASCII.
                let v = UInt8(u.value)
                if (v >= 0x41 && v <= 0x5A) { out.append(Unicode.Scalar(v + 32)) }
                else if (v >= 0x61 && v <= 0x7A) || (v >= 0x30 && v <= 0x39) { out.append(u) }
                else { out.append(" ") }
                continue
            }
            if (0x300...0x36F).contains(u.value) { continue }  // stray combining marks
            if let base = LatinFold.table[u.value] { out.append(contentsOf: base.unicodeScalars); continue }
            let p = u.properties
            if p.isAlphabetic || p.numericType != nil {
                out.append(contentsOf: p.lowercaseMapping.unicodeScalars)
            } else {
                out.append(" ")
            }
        }
        return String(out)
    }

    /// The words of a folded text as UTF-8 bytes, stopwords dropped (one pass over the bytes).
    static func tokenBytes(_ folded: String) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var cur: [UInt8] = []
        func flush() {
            if !cur.isEmpty && !(cur.count <= stopwordMaxLength && stopwords.contains(cur)) { out.append(cur) }
            cur.removeAll(keepingCapacity: true)
        }
        for b in folded.utf8 { if b == 0x20 { flush() } else { cur.append(b) } }
        flush()
        return out
    }

    static func editDistanceAtMostOne(_ x: [UInt8], _ y: [UInt8]) -> Bool {
        if abs(x.count - y.count) > 1 { return false }
        var i = 0, j = 0, edits = 0
        while i < x.count && j < y.count {
            if x[i] == y[j] { i += 1; j += 1; continue }
            edits += 1
            if edits > 1 { return false }
            if x.count > y.count { i += 1 } else if y.count > x.count { j += 1 } else { i += 1; j += 1 }
        }
        return edits + (x.count - i) + (y.count - j) <= 1
    }

    static func hasPrefix(_ t: [UInt8], _ q: [UInt8]) -> Bool {
        guard t.count >= q.count else { return false }
        for k in 0..<q.count where t[k] != q[k] { return false }
        return true
    }

    static func containsBytes(_ t: [UInt8], _ q: [UInt8]) -> Bool {
        guard t.count >= q.count, !q.isEmpty else { return false }
        outer: for start in 0...(t.count - q.count) {
            for k in 0..<q.count where t[start + k] != q[k] { continue outer }
            return true
        }
        return false
    }

    /// One bit per byte value a set of words holds: a–z, 0–9, other bytes folded onto the rest
    /// (a shared bit only makes the filter in `search` let more names through, never fewer).
    static func byteMask(_ words: [[UInt8]]) -> UInt64 {
        var m: UInt64 = 0
        for w in words {
            for b in w {
                let bit = b >= 0x61 && b <= 0x7A ? UInt64(b - 0x61) : b >= 0x30 && b <= 0x39 ? 26 + UInt64(b - 0x30) : 36 + UInt64(b % 28)
                m |= 1 << bit
            }
        }
        return m
    }

    /// Letters in a UTF-8 token (for the typo and infix minimum lengths).
    static func letterCount(_ q: [UInt8]) -> Int { q.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } }

    /// The best score of query token `q` against a name's tokens (0 when nothing matches).
    static func tokenScore(_ q: [UInt8], _ name: [[UInt8]]) -> Double {
        var best = 0.0
        let n = letterCount(q)
        for t in name {
            if t == q { return exactScore }
            if hasPrefix(t, q) { best = max(best, prefixScore) }
            else if n >= 4 && editDistanceAtMostOne(q, t) { best = max(best, typoScore) }
            else if n >= 3 && containsBytes(t, q) { best = max(best, infixScore) }
        }
        return best
    }

    /// Score of query token `q` as a town word: exact, prefix or (4+ letters) one typo only.
    static func townTokenScore(_ q: [UInt8], _ town: [[UInt8]]) -> Double {
        var best = 0.0
        let n = letterCount(q)
        for t in town {
            if t == q { return exactScore }
            if hasPrefix(t, q) && n >= 3 { best = max(best, prefixScore) }
            else if n >= 4 && editDistanceAtMostOne(q, t) { best = max(best, typoScore) }
        }
        return best
    }
}
