/// A search text split into what it asks for: name words, town words (after the last comma:
/// "Bismarckplatz, Heidelberg") and house numbers (words starting with a digit). Cut to a fixed
/// size first, so every later step costs at most a constant per candidate.
struct PlaceQuery: Sendable, Equatable {
    /// Longest text read, in Unicode scalars (a street, number and town fit in far fewer; longer
    /// input is cut, so a 4,000-character paste costs the same as this).
    static let maxScalars = 160
    /// Most words read from the name part and from the town part.
    static let maxWords = 10
    /// Longest word kept, in UTF-8 bytes (longer words are cut).
    static let maxWordBytes = 40

    /// Folded name words (numbers included), in order.
    var name: [[UInt8]]
    /// Folded town words (after the last comma).
    var town: [[UInt8]]

    init(_ text: String) {
        var cut = String.UnicodeScalarView()
        for (i, u) in text.unicodeScalars.enumerated() {
            if i >= Self.maxScalars { break }
            cut.append(u)
        }
        let s = String(cut)
        var namePart = s, townPart = ""
        if let comma = s.lastIndex(of: ",") {
            namePart = String(s[..<comma]); townPart = String(s[s.index(after: comma)...])
        }
        func words(_ t: String) -> [[UInt8]] {
            PlaceSearch.tokenBytes(PlaceSearch.fold(t)).prefix(Self.maxWords).map { Array($0.prefix(Self.maxWordBytes)) }
        }
        name = words(namePart)
        town = words(townPart)
        // "Hauptstraße, 12": a number after the comma is a house number, not a town.
        let numbersAfterComma = town.filter { Self.isNumber($0) }
        if !numbersAfterComma.isEmpty { name += numbersAfterComma; town.removeAll { Self.isNumber($0) } }
        // ", Heidelberg" alone, or a name that is all numbers: the words are the name.
        if name.isEmpty { name = town; town = [] }
    }

    /// Whether a word is a house number ("12", "12a"): it starts with a digit.
    static func isNumber(_ w: [UInt8]) -> Bool { (w.first.map { $0 >= 0x30 && $0 <= 0x39 }) ?? false }

    /// Name words that are not house numbers.
    var words: [[UInt8]] { name.filter { !Self.isNumber($0) } }
    /// House-number words.
    var numbers: [[UInt8]] { name.filter(Self.isNumber) }
    var isEmpty: Bool { name.isEmpty && town.isEmpty }
}
