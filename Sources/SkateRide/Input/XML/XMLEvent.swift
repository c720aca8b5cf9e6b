/// One thing `XMLPullTokenizer` found in a document, in document order.
///
/// Names are qualified as written (`gpx:trkpt`); use `XMLName.local` to drop a prefix.
/// Namespaces are not resolved: SkateRoute's formats match on local names.
enum XMLEvent: Equatable, Sendable {
    /// `<name a="1">` or `<name/>` (a self-closing tag is followed at once by its `endElement`).
    case startElement(name: String, attributes: [XMLAttribute])
    /// `</name>`, or the end of a self-closing tag.
    case endElement(name: String)
    /// Character data inside the root element: entities and character references decoded,
    /// line breaks normalised to `\n`. A CDATA section arrives as its own `text`, verbatim.
    /// Adjacent runs are not merged (text, CDATA, text is three events).
    case text(String)
}

/// An attribute of a start tag, its value decoded (entities, character references) and
/// normalised as XML requires (literal tabs and line breaks become spaces).
struct XMLAttribute: Equatable, Sendable {
    var name: String
    var value: String
}

/// Qualified-name helpers.
enum XMLName {
    /// The part after the last `:` (`g:trkpt` → `trkpt`), or the whole name without a prefix.
    static func local(_ qualified: String) -> Substring {
        let utf8 = qualified.utf8
        if let colon = utf8.lastIndex(of: UInt8(ascii: ":")) { return qualified[utf8.index(after: colon)...] }
        return Substring(qualified)
    }
}
