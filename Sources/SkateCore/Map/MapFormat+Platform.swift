#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension MapFormat {
    /// `mmap` flag that maps every page at once when the whole file will be read (hashing):
    /// Linux's MAP_POPULATE; elsewhere 0, and pages fault in on first touch.
    #if os(Linux)
    static let populateFlag = MAP_POPULATE
    #else
    static let populateFlag: Int32 = 0
    #endif

    /// `madvise` advice for a mapping read at scattered places (no read-ahead around a fault):
    /// MADV_RANDOM where the platform has it.
    #if os(Linux)
    static let randomAccessAdvice = MADV_RANDOM
    #else
    static let randomAccessAdvice: Int32 = 0
    #endif
}
