/// The key table as Markdown for docs/tui.md, generated from `KeyMap` like the key bar and the
/// help box (a test keeps the document equal to it).
public enum KeyMapDoc {
    /// Contexts in the order the document lists them, with their headings.
    static let sections: [(ScreenID, String)] = [
        (.plan, "Plan screen (command mode)"), (.planInput, "Plan screen, typing in From or To"),
        (.preview, "Route preview"), (.ride, "Ride"), (.confirmLeave, "\"Leave the ride?\""), (.arrival, "Arrival panel"),
        (.browse, "Map browser"), (.spotList, "Spots list"), (.savedList, "Saved places and routes"), (.mapList, "Maps"),
        (.downhillList, "Descents list"),
        (.ridePicker, "Replay picker"), (.routeName, "\"Save route as\" prompt"), (.help, "Help box"),
    ]

    /// One table per context: key, what it does, and its key-bar label when it has one.
    public static func markdown(_ keyMap: KeyMap = .standard) -> String {
        var out: [String] = []
        for (screen, title) in sections {
            out.append("### " + title)
            out.append("")
            out.append("| Key | Does | Bar |")
            out.append("|---|---|---|")
            for b in keyMap.enabled(on: screen) {
                let keys = b.keys.map { "`" + $0.label(.unicode).replacing("|", with: "\\|") + "`" }.joined(separator: " ")
                out.append("| \(keys) | \(b.help)\(b.needsStore ? " (only with a store)" : "") | \(b.barLabel) |")
            }
            out.append("")
        }
        return out.joined(separator: "\n")
    }
}
