import ArgumentParser
import FoundationEssentials
import Glibc
import SkateStore

extension StoreOptions {
    /// The skeleton of every command that changes the store (`hazards add|confirm|gone`, `rate`):
    /// the command's instant (`--now` or the clock), the open store, then the change, with a store
    /// error turned into one line.
    func change<T>(_ body: (SkateStore, Date) throws -> T) throws -> T {
        let now = try instant()
        let db = try open()
        return try CLIParse.store { try body(db, now) }
    }
}

/// What `hazards confirm` and `hazards gone` take: a hazard id, who votes, and the store.
struct HazardVoteOptions: ParsableArguments {
    @Argument(help: "Hazard id (see `hazards list`).") var id: String
    @OptionGroup var reporter: ReporterOption
    @OptionGroup var store: StoreOptions

    /// Casts one vote on the hazard; returns its id and the store's answer.
    func cast<T>(_ vote: (SkateStore, _ id: Int64, _ reporter: String, Date) throws -> T) throws -> (id: Int64, result: T) {
        let hid = try CLIParse.hazardID(id)
        return (hid, try store.change { db, now in try vote(db, hid, reporter.name, now) })
    }
}
