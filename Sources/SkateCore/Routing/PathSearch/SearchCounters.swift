import Synchronization

/// Process-wide counts of the router's A* work, for `skateroute bench`'s breakdown of where a
/// plan's time goes (searches per plan, states settled per plan). One relaxed atomic add per
/// search and per `Search.advance` call: nothing in the inner loop.
public enum SearchCounters {
    private static let searchCount = Atomic<Int>(0)
    private static let settledCount = Atomic<Int>(0)

    /// Searches seeded so far (each `bestRoute` runs one to three).
    public static var searches: Int { searchCount.load(ordering: .relaxed) }
    /// States taken off the open list so far, over all searches (settled, and stale entries of
    /// states settled before).
    public static var settled: Int { settledCount.load(ordering: .relaxed) }

    /// States settled by one task's own searches, apart from every other thread's: the tests
    /// that compare two searches' work (`TargetCostBoundTests`) while other suites search at the
    /// same time read this, not the process-wide count, which the others' searches also raise.
    final class Tally: Sendable {
        let settled = Atomic<Int>(0)
        /// Crusty-rule proofs run (`CrustyRuleProof.provesNoLine`, quick and full): what a
        /// known rule-abiding line spares (`RuleWitnessTests`).
        let proofs = Atomic<Int>(0)
    }
    /// The tally the searches run in this task add to (`$tally.withValue`), if any.
    @TaskLocal static var tally: Tally?

    static func countSearch() { searchCount.add(1, ordering: .relaxed) }
    static func countProof() { tally?.proofs.add(1, ordering: .relaxed) }
    static func countSettled(_ n: Int) {
        guard n > 0 else { return }
        settledCount.add(n, ordering: .relaxed)
        tally?.settled.add(n, ordering: .relaxed)
    }
}
