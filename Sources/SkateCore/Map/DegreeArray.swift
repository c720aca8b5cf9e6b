/// Latitudes or longitudes (degrees) as a map stores them: as Int32 counts of 1e-7 degree (OSM's
/// own resolution, half the bytes of Double) while every value is exactly such a count, else as
/// plain Doubles. Reading gives back the very same Double either way: `Double(q) / 1e7` is the
/// correctly rounded value of q × 10⁻⁷, exactly what parsing the OSM decimal (or dividing
/// PBF nanodegrees by 10⁹) produced; a value that would not come back bit for bit (an
/// interpolated point, a hand-built test map) switches the array to Doubles.
public struct DegreeArray: RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral, Equatable, @unchecked Sendable {
    /// Units per degree of the fixed-point form.
    public static let unitsPerDegree = 1e7

    /// The fixed-point values, when `isFixed`.
    @usableFromInline var fixed: FlatArray<Int32>
    /// The plain values, when not `isFixed`.
    @usableFromInline var plain: FlatArray<Double>
    /// Which of the two holds the values.
    @usableFromInline var isFixed: Bool

    public typealias Index = Int

    public init() { fixed = []; plain = []; isFixed = true }

    public init(_ values: [Double]) {
        self.init()
        append(contentsOf: values)
    }

    public init(arrayLiteral elements: Double...) { self.init(elements) }

    /// Views stored arrays (one of them empty).
    init(fixed: FlatArray<Int32>) { self.fixed = fixed; plain = []; isFixed = true }
    init(plain: FlatArray<Double>) { fixed = []; self.plain = plain; isFixed = false }

    /// The fixed-point count that gives back exactly `x`, or nil.
    @inlinable static func exactUnits(_ x: Double) -> Int32? {
        let q = (x * unitsPerDegree).rounded()
        guard abs(q) < 2_147_483_647, Double(Int32(q)) / unitsPerDegree == x else { return nil }
        return Int32(q)
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { isFixed ? fixed.count : plain.count }

    @inlinable public subscript(i: Int) -> Double {
        get { isFixed ? Double(fixed[i]) / Self.unitsPerDegree : plain[i] }
        set {
            if isFixed {
                if let q = Self.exactUnits(newValue) { fixed[i] = q; return }
                switchToPlain()
            }
            plain[i] = newValue
        }
    }

    /// Whether every value lies within ±`limit` degrees (NaN never does). On fixed storage a
    /// min/max over the Int32 counts, which vectorises: the load-time checks of a Heidelberg map
    /// read 250 000 shape points on every plan.
    public func allWithin(_ limit: Double) -> Bool {
        if isFixed {
            return fixed.withUnsafeBufferPointer { b in
                var lo = Int32.max, hi = Int32.min
                for q in b { lo = Swift.min(lo, q); hi = Swift.max(hi, q) }
                return b.isEmpty || (Double(lo) / Self.unitsPerDegree >= -limit && Double(hi) / Self.unitsPerDegree <= limit)
            }
        }
        return plain.withUnsafeBufferPointer { b in b.allSatisfy { abs($0) <= limit } }
    }

    @usableFromInline mutating func switchToPlain() {
        guard isFixed else { return }
        var p = FlatArray<Double>()
        p.reserveCapacity(fixed.count)
        for q in fixed { p.append(Double(q) / Self.unitsPerDegree) }
        plain = p; fixed = []; isFixed = false
    }

    public mutating func append(_ x: Double) {
        if isFixed {
            if let q = Self.exactUnits(x) { fixed.append(q); return }
            switchToPlain()
        }
        plain.append(x)
    }

    public mutating func append<S: Sequence>(contentsOf s: S) where S.Element == Double {
        for x in s { append(x) }
    }

    public mutating func reserveCapacity(_ n: Int) {
        if isFixed { fixed.reserveCapacity(n) } else { plain.reserveCapacity(n) }
    }

    /// For loops written against `FlatArray<Double>.withUnsafeBufferPointer`: hands the body the
    /// array itself (its reads are a bounds check and a load, like a buffer's), whichever form
    /// it holds.
    public func withUnsafeBufferPointer<R>(_ body: (DegreeArray) throws -> R) rethrows -> R { try body(self) }

    /// Whether the values live in a mapped file (zero-copy).
    public var isMapped: Bool { isFixed ? fixed.isMapped : plain.isMapped }

    /// The stored bytes and their element size (4: fixed point, 8: Double), for the map file.
    var storage: (elementSize: Int, bytes: [UInt8]) {
        isFixed ? (4, fixed.withUnsafeBytes { Array($0) }) : (8, plain.withUnsafeBytes { Array($0) })
    }

    public static func == (a: DegreeArray, b: DegreeArray) -> Bool { a.elementsEqual(b) }
}
