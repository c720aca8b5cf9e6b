import SkateCore
import Testing

/// The one-pass safety check agrees with cleaning line by line, on seeded random texts that mix
/// escapes, C1 controls, bidi overrides, tabs, newlines and ordinary accented text.
@Suite struct TerminalSafeTests {
    @Test func safeCheckAgreesWithCleaning() {
        let seed: UInt64 = 0xC1EA_0001
        var rng = SplitMix64(seed: seed)
        let pool: [String] = ["a", "Rue ", "é", "→", "—", "🛹", "\n", "\t", "\u{1B}[31m", "\u{1B}]0;x\u{07}", "\u{9B}", "\u{85}",
                              "\u{202E}", "\u{2066}", "\u{FEFF}", "\u{7F}", "\u{00}", "\r", "ß", " "]
        var safeCount = 0
        for _ in 0..<2000 {
            var s = ""
            for _ in 0..<Int(rng.next() % 8) { s += pool[Int(rng.next() % UInt64(pool.count))] }
            let cleanEveryLine = s.split(separator: "\n", omittingEmptySubsequences: false)
                .allSatisfy { TerminalSafe.clean(String($0)) == String($0) }
            #expect(TerminalSafe.isSafeMultiline(s) == cleanEveryLine, "seed \(seed): \(s.unicodeScalars.map { String($0.value, radix: 16) })")
            if cleanEveryLine { safeCount += 1 }
        }
        #expect(safeCount > 100 && safeCount < 1900, "the generator must produce both kinds of text")
    }
}
