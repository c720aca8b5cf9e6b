/// Why a document is not well-formed XML (as far as `XMLTokenizer`, a non-validating
/// tokenizer, checks), with the 1-based line of the problem.
package struct XMLSyntaxError: Error, Equatable, CustomStringConvertible, Sendable {
    /// 1-based line number (LF, CR LF and lone CR each end a line).
    package var line: Int
    /// One line of text saying what is wrong.
    package var message: String

    package init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    package var description: String { "line \(line): \(message)" }
}
