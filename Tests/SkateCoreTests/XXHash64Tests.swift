import SkateCore
import Testing

/// XXH64 against digests from the reference implementation (python-xxhash 3.x, seed 0), over
/// lengths that exercise every tail path (1-, 4- and 8-byte steps, the 32-byte stripes).
@Suite struct XXHash64Tests {
    @Test func matchesTheReferenceDigests() {
        let vectors: [(Int, UInt64)] = [
            (0, 0xef46db3751d8e999), (1, 0xe934a84adb052768), (3, 0xe5c7bb4533bc65dd), (4, 0xffced8604453cc1e),
            (7, 0x14cc643f630c72d2), (8, 0x884a173614b81b8d), (31, 0xc346d2b59b4d8ee1), (32, 0xcbf59c5116ff32b4),
            (33, 0x0c535d1acafb8ead), (100, 0x6ac1e58032166597),
        ]
        for (n, want) in vectors {
            let bytes = (0..<n).map { UInt8($0) }
            #expect(bytes.withUnsafeBytes { XXHash64.hash($0) } == want, "length \(n)")
        }
        #expect(Array("abc".utf8).withUnsafeBytes { XXHash64.hash($0) } == 0x44bc2cf5ad770999)
        let long = (0..<1280).map { UInt8($0 % 256) }
        #expect(long.withUnsafeBytes { XXHash64.hash($0) } == 0xafc184ad7938a354)
    }
}
