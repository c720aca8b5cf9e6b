import FoundationEssentials
import Glibc
import SkateCore

/// `-` as an input file: standard input, copied to a temporary file for readers that take a path
/// (and may read twice, e.g. to tell the format first).
enum StdinInput {
    /// Most bytes read from standard input, 256 MB: a long ride's GPX is a few MB.
    static let maxBytes = 256 << 20

    /// `argument` itself, or for `-` a temporary file holding standard input (named with
    /// `suffix`, e.g. ".gpx"), removed when the process exits.
    /// - Throws: an ExitCode after one line when standard input is empty, too large or unreadable.
    static func path(for argument: String, suffix: String) throws -> String {
        guard argument == "-" else { return argument }
        guard let bytes = StandardStreams.readInput(upTo: maxBytes + 1), !bytes.isEmpty else {
            throw fail("-: nothing on standard input")
        }
        guard bytes.count <= maxBytes else { throw fail("-: standard input is over \(maxBytes >> 20) MB") }
        let dir = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let path = PathText.appending(dir, "skateroute-stdin-\(getpid())\(suffix)")
        guard let f = RawFile(writingTo: path), f.write(bytes) else { throw fail("-: cannot copy standard input to \(path)") }
        f.close()
        if temporaryFiles.isEmpty { atexit { for p in StdinInput.temporaryFiles { unlink(p) } } }
        temporaryFiles.append(path)
        return path
    }

    /// Temporary copies to remove at exit (the CLI's main thread alone touches it).
    nonisolated(unsafe) static var temporaryFiles: [String] = []
}
