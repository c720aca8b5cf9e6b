import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// The rider's own places in the From/To search: saved places matching the text rank first
/// (marked with their category), and an empty field lists the recent destinations.
enum RiderSearch {
    /// Results for a field's text: recents when empty; otherwise saved places whose name
    /// contains the text (folded: case, accents and punctuation ignored; prefixes first), then
    /// `mapResults` without the names already listed, `limit` in all.
    static func results(for text: String, rider: RiderData, limit: Int, mapResults: () -> [PlaceResult]) -> [PlaceResult] {
        let q = RiderName.folded(text)
        if text.trimmingWhitespace().isEmpty {
            return rider.recents().prefix(SkateStore.recentLimit).map {
                PlaceResult(name: TerminalSafe.clean($0.name), kind: "recent", at: $0.at, mark: .recent)
            }
        }
        guard !q.isEmpty else { return mapResults() }
        let saved = rider.savedPlaces().compactMap { p -> (Int, PlaceResult)? in
            let f = RiderName.folded(p.name)
            guard let r = f.firstRange(of: q) else { return nil }
            let rank = f == q ? 0 : (r.lowerBound == f.startIndex ? 1 : 2)
            return (rank, PlaceResult(name: TerminalSafe.clean(p.name), kind: "[" + (p.category ?? "saved") + "]", at: p.at, mark: .saved))
        }.sorted { ($0.0, $0.1.name) < ($1.0, $1.1.name) }.map(\.1)
        var out = Array(saved.prefix(limit))
        let names = Set(out.map { RiderName.folded($0.name) })
        for r in mapResults() where out.count < limit && !names.contains(RiderName.folded(r.name)) { out.append(r) }
        return out
    }

    /// The focused, empty, unpicked field gets the recents (on entering it or clearing it).
    static func fillRecents(_ s: inout PlanState, services: TUIServices) {
        PlanScreen.editField(&s) { f in
            guard f.text.isEmpty, f.chosen == nil, f.results.isEmpty else { return }
            f.results = results(for: "", rider: services.rider, limit: SkateStore.recentLimit, mapResults: { [] })
            f.selected = 0
        }
    }
}
