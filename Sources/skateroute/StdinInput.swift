import FoundationEssentials
import Glibc
import SkateCore

/// `-` as an input file: standard input, copied to a temporary file for readers that take a path
/// (and may read twice, e.g. to tell the format first).
enum StdinInput {
    /// Most bytes a GPX on standard input may have, 256 MB (a long ride's GPX is a few MB).
    static let maxGPXBytes = 256 << 20
    /// Bytes copied per read, 1 MB: streaming, so an extract of any size never sits in memory.
    static let chunkBytes = 1 << 20

    /// `argument` itself, or for `-` a temporary file holding standard input (named with
    /// `suffix`, e.g. ".gpx"), removed when the process exits. Copied in chunks, at most `limit` bytes.
    /// - Throws: an ExitCode after one line when standard input is empty, too large or unreadable.
    static func path(for argument: String, suffix: String, limit: Int = maxGPXBytes) throws -> String {
        guard argument == "-" else { return argument }
        let dir = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let path = PathText.appending(dir, "skateroute-stdin-\(getpid())\(suffix)")
        guard let f = RawFile(writingTo: path) else { throw fail("-: cannot copy standard input to \(path)") }
        if temporaryFiles.isEmpty { atexit { for p in StdinInput.temporaryFiles { unlink(p) } } }
        temporaryFiles.append(path)
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        var total = 0
        while true {
            let n: Int
            do { n = try chunk.withUnsafeMutableBytes { try StandardStreams.readInput(into: $0) } } catch {
                throw fail("-: cannot read standard input (\(RawFile.reason(error)))")
            }
            if n == 0 { break }
            total += n
            guard total <= limit else { throw fail("-: standard input is over \(limit >> 20) MB") }
            guard f.write(chunk[0..<n]) else { throw fail("-: cannot copy standard input to \(path)") }
        }
        f.close()
        guard total > 0 else { throw fail("-: nothing on standard input") }
        return path
    }

    /// Temporary copies to remove at exit (the CLI's main thread alone touches it).
    nonisolated(unsafe) static var temporaryFiles: [String] = []
}
