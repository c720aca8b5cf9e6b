#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only memory mapping of a whole file, unmapped when the last array viewing it goes.
public final class MappedFile: @unchecked Sendable {
    /// First byte of the mapping (nil for an empty file).
    public let base: UnsafeRawPointer?
    /// Length in bytes.
    public let size: Int
    /// The mapped file, kept open read-only for a session's lease (`MapLease`), or -1.
    let descriptor: Int32

    /// Takes ownership of a `PROT_READ` mapping made with `mmap` (and of `descriptor`, closed
    /// with it: closing it lets any lease on the file go).
    init(base: UnsafeRawPointer?, size: Int, descriptor: Int32 = -1) {
        self.base = base
        self.size = size
        self.descriptor = descriptor
    }

    deinit {
        if let base, size > 0 { munmap(UnsafeMutableRawPointer(mutating: base), size) }
        if descriptor >= 0 { close(descriptor) }
    }

    /// The mapped bytes.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: size) }
}

/// Owned, growable storage of a `FlatArray` (elements are bitwise-copyable: no deinitialisation).
@usableFromInline final class FlatBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
    @usableFromInline let pointer: UnsafeMutablePointer<Element>
    @usableFromInline let capacity: Int

    /// Whether `pointer` came from `calloc` (and goes back with `free`).
    @usableFromInline let zeroed: Bool

    @usableFromInline init(capacity: Int) {
        self.capacity = max(capacity, 1)
        pointer = .allocate(capacity: self.capacity)
        zeroed = false
    }

    /// Zero-filled storage whose pages the system hands out only when first touched (`calloc`
    /// maps large blocks fresh): a per-edge table of zeros that a plan writes a few entries of
    /// (the store's hazards and freshness) costs the pages written, not the whole map's edges.
    @usableFromInline init(zeroedCapacity capacity: Int) {
        self.capacity = max(capacity, 1)
        guard let p = calloc(self.capacity, MemoryLayout<Element>.stride) else { fatalError("out of memory") }
        pointer = p.bindMemory(to: Element.self, capacity: self.capacity)
        zeroed = true
    }

    deinit { if zeroed { free(pointer) } else { pointer.deallocate() } }
}

/// The storage of every map array: owned memory while a map is built in memory, or a zero-copy
/// view into a memory-mapped `.srmap` once loaded.
///
/// Why not `[Element]` throughout: copying a 1.6 MB map into fresh arrays cost ~400 page faults
/// (~0.7 ms) of every `skateroute plan` process, while a mapped file costs a few dozen faults
/// for the pages the plan actually reads. Reads are one bounds check and a pointer load in both
/// cases (no branch on the kind of storage); the first write to a mapped or shared array copies
/// it into owned memory (copy-on-write), so the file is never written.
public struct FlatArray<Element: BitwiseCopyable>: RandomAccessCollection, MutableCollection, @unchecked Sendable {
    /// First element (nil when empty) and element count: all that reads touch.
    @usableFromInline var base: UnsafePointer<Element>?
    @usableFromInline var storedCount: Int
    /// What keeps `base` alive: owned memory, or the mapping.
    @usableFromInline var owner: FlatBuffer<Element>?
    @usableFromInline var file: MappedFile?

    public typealias Index = Int

    public init() { base = nil; storedCount = 0; owner = nil; file = nil }

    /// Copies the elements of an array.
    public init(_ array: [Element]) {
        self.init()
        guard !array.isEmpty else { return }
        let b = FlatBuffer<Element>(capacity: array.count)
        array.withUnsafeBufferPointer { src in b.pointer.initialize(from: src.baseAddress!, count: src.count) }
        owner = b; base = UnsafePointer(b.pointer); storedCount = array.count
    }

    public init(repeating value: Element, count: Int) {
        self.init()
        guard count > 0 else { return }
        let allZero = Swift.withUnsafeBytes(of: value) { $0.allSatisfy { $0 == 0 } }
        let b = allZero ? FlatBuffer<Element>(zeroedCapacity: count) : FlatBuffer<Element>(capacity: count)
        if !allZero { b.pointer.initialize(repeating: value, count: count) }
        owner = b; base = UnsafePointer(b.pointer); storedCount = count
    }

    /// A view of `count` elements at `byteOffset` (suitably aligned) in a mapped file.
    init(file: MappedFile, byteOffset: Int, count: Int) {
        self.init()
        self.file = file
        base = count > 0 ? file.base!.advanced(by: byteOffset).assumingMemoryBound(to: Element.self) : nil
        storedCount = count
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { storedCount }
    @inlinable public var count: Int { storedCount }

    @inlinable public subscript(i: Int) -> Element {
        get {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: storedCount), "FlatArray index out of range")
            return base.unsafelyUnwrapped[i]
        }
        set {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: storedCount), "FlatArray index out of range")
            makeUnique(capacity: storedCount)[i] = newValue
        }
    }

    @inlinable public subscript(bounds: Range<Int>) -> Slice<FlatArray<Element>> {
        get {
            precondition(bounds.lowerBound >= 0 && bounds.upperBound <= storedCount, "FlatArray range out of range")
            return Slice(base: self, bounds: bounds)
        }
        set {
            for (k, i) in bounds.enumerated() { self[i] = newValue[newValue.startIndex + k] }
        }
    }

    /// Owned, unshared memory for at least `capacity` elements holding the current ones.
    /// Inlinable, as `append` is: called across modules unspecialised, each append looked up the
    /// generic buffer's type metadata (`swift_getGenericMetadata`, ~4 % of a region's import CPU,
    /// perf, K = 3).
    @inlinable mutating func makeUnique(capacity: Int) -> UnsafeMutablePointer<Element> {
        // Uniqueness first: binding `owner` to a local before the check would add a reference
        // and make every write copy the whole array.
        if isKnownUniquelyReferenced(&owner), owner.unsafelyUnwrapped.capacity >= capacity { return owner.unsafelyUnwrapped.pointer }
        let b = FlatBuffer<Element>(capacity: capacity)
        if let base, storedCount > 0 { b.pointer.initialize(from: base, count: storedCount) }
        owner = b; file = nil; base = UnsafePointer(b.pointer)
        return b.pointer
    }

    @inlinable public mutating func append(_ x: Element) {
        let cap = owner?.capacity ?? 0
        let p = makeUnique(capacity: storedCount < cap ? cap : Swift.max(16, storedCount * 2))
        p[storedCount] = x
        storedCount += 1
    }

    @inlinable public mutating func append<S: Sequence>(contentsOf s: S) where S.Element == Element {
        for x in s { append(x) }
    }

    @inlinable public mutating func reserveCapacity(_ n: Int) {
        if n > (owner?.capacity ?? 0) { _ = makeUnique(capacity: n) }
    }

    /// Elements `range` as their own array: a view into the same mapping when mapped (no copy).
    public func subarray(_ range: Range<Int>) -> FlatArray {
        precondition(range.lowerBound >= 0 && range.upperBound <= storedCount, "FlatArray range out of range")
        if let file {
            var v = FlatArray()
            v.file = file
            v.base = range.isEmpty ? nil : base.unsafelyUnwrapped + range.lowerBound
            v.storedCount = range.count
            return v
        }
        return FlatArray(Array(self[range]))
    }

    /// The elements as contiguous memory.
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(UnsafeBufferPointer(start: base, count: storedCount)) }
    }

    /// The elements as raw bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBufferPointer { try body(UnsafeRawBufferPointer($0)) }
    }

    /// The elements as a Swift array (a copy).
    public var array: [Element] { withUnsafeBufferPointer { Array($0) } }

    /// Whether the elements live in a mapped file (zero-copy) rather than owned memory.
    public var isMapped: Bool { file != nil }
}

extension FlatArray: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension FlatArray: Equatable where Element: Equatable {
    public static func == (a: FlatArray, b: FlatArray) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.elementsEqual(y) } }
    }

    /// Compares with a plain array (tests, builders).
    public static func == (a: FlatArray, b: [Element]) -> Bool { a == FlatArray(b) }
}

extension FlatArray: CustomStringConvertible {
    public var description: String { array.description }
}
