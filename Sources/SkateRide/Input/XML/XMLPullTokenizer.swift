import SkateCore

/// GPX's view of SkateCore's one XML tokenizer (`XMLTokenizer`, shared with the OSM XML reader):
/// a whole document in memory or a file streamed through it, handed out as events with every attribute value and text decoded,
/// so an undecodable value anywhere is an error even in elements GPX ignores.
struct XMLPullTokenizer {
    /// Longest single piece of markup or text accepted, in bytes (the shared tokenizer's bound).
    static var maxTokenBytes: Int { XMLTokenizer.maxTokenBytes }
    /// Deepest element nesting accepted.
    static var maxDepth: Int { XMLTokenizer.maxDepth }

    private var tokenizer: XMLTokenizer

    /// Prepares `document` (the whole file): checks the encoding and that every byte is UTF-8 text.
    /// - Throws: `XMLSyntaxError` for UTF-16, an unsupported declared encoding, invalid UTF-8 or
    ///   a control character.
    init(bytes document: [UInt8]) throws(XMLSyntaxError) {
        do {
            tokenizer = try XMLTokenizer(input: XMLArrayInput(document), chunkBytes: max(1, document.count))
        } catch {
            throw Self.syntax(error)
        }
    }

    /// Streams `input` (a file read a chunk at a time): the same checks, made as the bytes arrive.
    init(input: any XMLByteInput) throws(XMLSyntaxError) {
        do {
            tokenizer = try XMLTokenizer(input: input)
        } catch {
            throw Self.syntax(error)
        }
    }

    /// 1-based line of the markup or text behind the last event.
    var eventLine: Int { tokenizer.tokenLine }

    /// The next event, or nil at the end of a complete document.
    /// - Throws: `XMLSyntaxError` naming the line and the problem; the tokenizer is then unusable.
    mutating func next() throws(XMLSyntaxError) -> XMLEvent? {
        let token: XMLTokenizer.Token?
        do { token = try tokenizer.next() } catch { throw Self.syntax(error) }
        switch token {
        case nil:
            return nil
        case .startElement:
            var attributes: [XMLAttribute] = []
            attributes.reserveCapacity(tokenizer.attributeCount)
            for i in 0..<tokenizer.attributeCount {
                attributes.append(XMLAttribute(name: tokenizer.attributeName(i), value: try tokenizer.attributeValue(i)))
            }
            return .startElement(name: tokenizer.name, attributes: attributes)
        case .endElement:
            return .endElement(name: tokenizer.name)
        case .text, .cdata:
            return .text(try tokenizer.text())
        }
    }

    private static func syntax(_ error: XMLTokenizerError) -> XMLSyntaxError {
        switch error {
        case .syntax(let e): return e
        case .input(let e): return XMLSyntaxError(line: 1, message: "cannot read on: \(e)")  // a file (an array never fails)
        }
    }
}
