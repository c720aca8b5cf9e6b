import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One readable line for an error, in place of `localizedDescription` (an extension in
/// CoreFoundation-backed Foundation; see `PrintfArgument`). File errors from FoundationEssentials
/// read as the system's message for their cause ("No such file or directory"), which is what the
/// rider can act on; the callers add the path.
public enum ErrorText {
    /// The error as one line.
    public static func describe(_ error: any Error) -> String {
        if let p = error as? POSIXError { return posixMessage(p.code.rawValue) }
        if let c = error as? CocoaError {
            if let p = c.underlying as? POSIXError { return posixMessage(p.code.rawValue) }
            return cocoaMessage(c.code)
        }
        return String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// `strerror` text for an errno value.
    public static func posixMessage(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    private static func cocoaMessage(_ code: CocoaError.Code) -> String {
        switch code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return posixMessage(ENOENT)
        case .fileReadNoPermission, .fileWriteNoPermission: return posixMessage(EACCES)
        case .fileWriteOutOfSpace: return posixMessage(ENOSPC)
        case .fileWriteFileExists: return posixMessage(EEXIST)
        case .fileWriteVolumeReadOnly: return posixMessage(EROFS)
        case .fileReadCorruptFile: return "the file is corrupt or not in the expected format"
        case .fileReadInapplicableStringEncoding: return "the file is not valid text in the expected encoding"
        default: return "file error \(code.rawValue)"
        }
    }
}
