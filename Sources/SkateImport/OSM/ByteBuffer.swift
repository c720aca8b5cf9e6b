/// A reusable raw byte buffer that grows on demand; readers keep one per role so decoding a file
/// allocates a handful of buffers, not one per block.
final class ByteBuffer {
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { base.deallocate() }

    /// Ensures room for `count` bytes. Does not keep the old contents.
    func reserve(_ count: Int) {
        guard count > capacity else { return }
        base.deallocate()
        capacity = count
        base = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
    }

    /// Ensures room for `count` bytes, keeping the first `keeping` bytes.
    func grow(to count: Int, keeping: Int) {
        guard count > capacity else { return }
        let fresh = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        fresh.copyMemory(from: base, byteCount: keeping)
        base.deallocate()
        base = fresh
        capacity = count
    }

    var bytes: UnsafeMutablePointer<UInt8> { base.assumingMemoryBound(to: UInt8.self) }
}
