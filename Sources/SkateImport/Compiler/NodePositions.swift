/// The position of every node the extract holds, by OSM id: what the compiler looks up for the
/// ways, places, zones and building rings (issue 31, a streaming import).
///
/// A PBF lists its nodes in ascending id order (and so does every extract `osmium` or Geofabrik
/// writes), so the ids go in one sorted array searched by bisection — 8 bytes a node — instead of a
/// `[Int64: Int32]` dictionary (~24 bytes a node at its load factor, twice that while it grows).
/// Coordinates are kept as Int32 × 1e-7° (the PBF grid, 8 bytes a node) while every one read sits
/// exactly on that grid, read back as the very `Double` the reader produced; the first that does
/// not (an XML file with more decimals) turns the store into `Double`s. An extract whose ids do not
/// ascend turns it into a dictionary, as before. The compiled map is the same in every form.
struct NodePositions {
    /// Ids of the nodes added by `add`, in the order of their positions, while `byId` is nil.
    private var sorted = AscendingIds()
    /// Fixed-point coordinates (1e-7°) while `exact`; then `latD`/`lonD` hold them.
    private var latE7: [Int32] = [], lonE7: [Int32] = []
    private var latD: [Double] = [], lonD: [Double] = []
    private var exact = true
    /// Every id's index once an id arrived out of order (nil while ids ascend).
    private var byId: [Int64: Int32]?
    /// Nodes added after the reading (`addCopy`: lift connectors' copies), by id.
    private var late: [Int64: Int32] = [:]

    /// Degrees per fixed-point unit (the PBF's default granularity, 100 nanodegrees).
    static let unitsPerDegree: Double = 1e7

    /// Coordinates stored.
    var count: Int { exact ? latE7.count : latD.count }

    /// Stores a node read from the extract; a repeated id replaces the earlier position.
    mutating func add(id: Int64, lat: Double, lon: Double) {
        if byId == nil, let last = sorted.last, id <= last {
            if id == last { set(count - 1, lat: lat, lon: lon); return }
            // Ids out of order: index them all by dictionary from here on.
            var d = [Int64: Int32](minimumCapacity: sorted.count * 2)
            for (i, x) in sorted.ids.enumerated() { d[x] = Int32(i) }
            byId = d
            sorted = AscendingIds()
        }
        if byId != nil {
            if let i = byId![id] { set(Int(i), lat: lat, lon: lon); return }
            byId![id] = Int32(count)
        } else {
            sorted.append(id)
        }
        append(lat: lat, lon: lon)
    }

    /// Stores a node that is not in the extract (a lift connector's copy of one that is).
    mutating func addCopy(id: Int64, lat: Double, lon: Double) {
        late[id] = Int32(count)
        append(lat: lat, lon: lon)
    }

    /// The index of node `id`'s position, nil when the extract does not hold it.
    subscript(id: Int64) -> Int32? {
        if !late.isEmpty, let i = late[id] { return i }
        if let byId { return byId[id] }
        return sorted.index(of: id).map { Int32($0) }
    }

    /// Latitude of the position at `i` (an index from the subscript), degrees.
    func lat(_ i: Int32) -> Double { exact ? Self.degrees(latE7[Int(i)]) : latD[Int(i)] }
    /// Longitude of the position at `i`, degrees.
    func lon(_ i: Int32) -> Double { exact ? Self.degrees(lonE7[Int(i)]) : lonD[Int(i)] }

    /// The `Double` a PBF reader makes of `units` (it divides nanodegrees by 1e9).
    @inline(__always) static func degrees(_ units: Int32) -> Double { Double(Int64(units) * 100) / 1e9 }

    /// `x` in fixed-point units when it reads back exactly, else nil.
    @inline(__always) static func units(_ x: Double) -> Int32? {
        let u = (x * unitsPerDegree).rounded()
        guard abs(u) <= Double(Int32.max) else { return nil }
        let q = Int32(u)
        return degrees(q) == x ? q : nil
    }

    private mutating func append(lat: Double, lon: Double) {
        if exact, let a = Self.units(lat), let o = Self.units(lon) {
            latE7.append(a); lonE7.append(o)
            return
        }
        toDoubles()
        latD.append(lat); lonD.append(lon)
    }

    private mutating func set(_ i: Int, lat: Double, lon: Double) {
        if exact, let a = Self.units(lat), let o = Self.units(lon) {
            latE7[i] = a; lonE7[i] = o
            return
        }
        toDoubles()
        latD[i] = lat; lonD[i] = lon
    }

    /// Leaves the fixed-point form for good (a coordinate off the 1e-7° grid).
    private mutating func toDoubles() {
        guard exact else { return }
        latD = latE7.map(Self.degrees); lonD = lonE7.map(Self.degrees)
        latE7 = []; lonE7 = []
        exact = false
    }
}
