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

    /// Takes ownership of a `PROT_READ` mapping made with `mmap`.
    init(base: UnsafeRawPointer?, size: Int) {
        self.base = base
        self.size = size
    }

    deinit {
        if let base, size > 0 { munmap(UnsafeMutableRawPointer(mutating: base), size) }
    }

    /// The mapped bytes.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: size) }
}

/// The storage of every map array: a plain Swift array while a map is built in memory, or a
/// zero-copy view into a memory-mapped `.srmap` once loaded.
///
/// Why not `[Element]` throughout: copying a 1.6 MB map into fresh arrays cost ~400 page faults
/// (~0.7 ms) of every `skateroute plan` process, while a mapped file costs a few dozen faults
/// for the pages the plan actually reads. Reads are a pointer load either way; the first write
/// to a mapped array copies it into an owned one (copy-on-write), so the file is never written.
public struct FlatArray<Element: BitwiseCopyable>: RandomAccessCollection, MutableCollection, @unchecked Sendable {
    /// Owned elements (when not mapped).
    @usableFromInline var owned: [Element]
    /// The mapping and the first element inside it, when mapped.
    @usableFromInline var file: MappedFile?
    @usableFromInline var mappedBase: UnsafePointer<Element>?
    @usableFromInline var mappedCount: Int

    public typealias Index = Int

    /// Copies (owns) the elements of an array.
    public init(_ array: [Element]) {
        owned = array; file = nil; mappedBase = nil; mappedCount = 0
    }

    public init() { self.init([]) }

    public init(repeating value: Element, count: Int) { self.init([Element](repeating: value, count: count)) }

    /// A view of `count` elements at `byteOffset` (suitably aligned) in a mapped file.
    init(file: MappedFile, byteOffset: Int, count: Int) {
        owned = []
        self.file = file
        mappedBase = count > 0 ? file.base!.advanced(by: byteOffset).assumingMemoryBound(to: Element.self) : nil
        mappedCount = count
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { file == nil ? owned.count : mappedCount }
    @inlinable public var count: Int { endIndex }

    @inlinable public subscript(i: Int) -> Element {
        get {
            if file != nil {
                precondition(i >= 0 && i < mappedCount, "FlatArray index out of range")
                return mappedBase.unsafelyUnwrapped[i]
            }
            return owned[i]
        }
        set {
            makeOwned()
            owned[i] = newValue
        }
    }

    @inlinable public subscript(bounds: Range<Int>) -> Slice<FlatArray<Element>> {
        get {
            precondition(bounds.lowerBound >= 0 && bounds.upperBound <= count, "FlatArray range out of range")
            return Slice(base: self, bounds: bounds)
        }
        set {
            for (k, i) in bounds.enumerated() { self[i] = newValue[newValue.startIndex + k] }
        }
    }

    /// Elements `range` as their own array: a view into the same mapping when mapped (no copy).
    public func subarray(_ range: Range<Int>) -> FlatArray {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "FlatArray range out of range")
        if let file {
            var v = FlatArray()
            v.file = file
            v.mappedBase = range.isEmpty ? nil : mappedBase.unsafelyUnwrapped + range.lowerBound
            v.mappedCount = range.count
            return v
        }
        return FlatArray(Array(owned[range]))
    }

    /// Turns a mapped view into owned elements before a write.
    @usableFromInline mutating func makeOwned() {
        guard file != nil else { return }
        owned = withUnsafeBufferPointer { Array($0) }
        file = nil; mappedBase = nil; mappedCount = 0
    }

    public mutating func append(_ x: Element) { makeOwned(); owned.append(x) }

    public mutating func append<S: Sequence>(contentsOf s: S) where S.Element == Element { makeOwned(); owned.append(contentsOf: s) }

    public mutating func reserveCapacity(_ n: Int) { makeOwned(); owned.reserveCapacity(n) }

    /// The elements as contiguous memory.
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        if file != nil { return try body(UnsafeBufferPointer(start: mappedBase, count: mappedCount)) }
        return try owned.withUnsafeBufferPointer(body)
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
