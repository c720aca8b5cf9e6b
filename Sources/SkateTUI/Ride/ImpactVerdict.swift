import FoundationEssentials
import SkateCore
import SkateStore

/// The rider's answer to "N bumps detected — mark as pothole?" on the arrival panel, carried out
/// on the store like `skateroute hazards confirm` / `hazards gone` (a command's effect, issue 28).
enum ImpactVerdict {
    /// Carries out the answer for the impacts stored from ride `rideId`.
    ///
    /// Yes: each detected hazard these impacts made is confirmed by the rider (its kind stays
    /// what the detector guessed); an impact that made none (one pass under the hard-hit peak) is
    /// reported as a pothole where it was felt, as a keyboard report (merging within 18 m).
    /// No: each detected hazard these impacts made gets the rider's "gone" vote; the impacts stay
    /// stored (nothing recorded is lost), so a later pass can still raise one.
    /// - Returns: one line for the toast.
    static func apply(rideId: String, confirm: Bool, services: TUIServices) -> ReportResult {
        guard let store = services.store else { return ReportResult(text: "not saved: \(services.storeProblem)", isError: true) }
        let now = services.now()
        do {
            let impacts = try store.impacts(ofRide: rideId)
            guard !impacts.isEmpty else { return ReportResult(text: "no bumps of this ride in the store", isError: true) }
            var hazardIds: [Int64] = []
            for id in impacts.compactMap(\.hazardId) where !hazardIds.contains(id) { hazardIds.append(id) }
            var done: [String] = []
            var refused = 0
            for id in hazardIds {
                if confirm { _ = try store.confirmHazard(id: id, reporter: services.reporter, now: now) } else {
                    _ = try store.voteGone(id: id, reporter: services.reporter, now: now)
                }
                done.append("#\(id)")
            }
            var reported: [String] = []
            if confirm {
                for i in impacts where i.hazardId == nil {
                    let r = HazardReport(kind: .pothole, position: i.position, severity: QuickReports.keyboardSeverity, source: .keyboard,
                                         reporter: services.reporter)
                    do {
                        let c = try store.addHazard(r, zones: services.zones, now: now)
                        let tag = "#\(c.state.hazard.id)"
                        if !reported.contains(tag), !done.contains(tag) { reported.append(tag) }
                    } catch StoreError.noReportZone {
                        refused += 1
                    }
                }
            }
            var text: String
            if confirm {
                text = "Marked as pothole: " + (done.isEmpty ? "" : "confirmed " + done.joined(separator: ", "))
                    + (reported.isEmpty ? "" : (done.isEmpty ? "" : "; ") + "reported " + reported.joined(separator: ", "))
                if done.isEmpty && reported.isEmpty { text = "Marked as pothole: nothing filed" }
            } else {
                text = done.isEmpty ? "Dismissed: no detected hazard to vote gone (the bumps stay in the ride's record)"
                    : "Dismissed: voted gone " + done.joined(separator: ", ")
            }
            if refused > 0 { text += " (\(refused) in a no-report zone)" }
            return ReportResult(text: text)
        } catch {
            return ReportResult(text: "not saved: " + TerminalSafe.clean("\(error)"), isError: true)
        }
    }
}
