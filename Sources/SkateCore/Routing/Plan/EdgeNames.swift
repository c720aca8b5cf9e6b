import FoundationEssentials

/// The street names of a map's edges, read as `SkateMap.name(ofEdge:)` reads them, from the three
/// arrays they live in. Inlined into the plan builder's leg loop, the map's own reader copied the
/// whole map struct (~50 arrays retained and released) twice per leg (callgrind, issue 30 tenth
/// round); this holds three arrays, taken once per plan.
struct EdgeNames {
    /// `SkateMap.edgeName`, `stringStart` and `stringBytes`.
    let edgeName: FlatArray<UInt32>
    let stringStart: FlatArray<UInt32>
    let stringBytes: FlatArray<UInt8>

    init(_ map: SkateMap) {
        edgeName = map.edgeName
        stringStart = map.stringStart
        stringBytes = map.stringBytes
    }

    /// The name of edge `e` ("" when unnamed): `SkateMap.name(ofEdge:)`.
    func name(ofEdge e: Int) -> String { string(edgeName[e]) }

    /// The string stored at `index` (0 → ""): `SkateMap.string(_:)`.
    func string(_ index: UInt32) -> String { SkateMap.string(index, starts: stringStart, bytes: stringBytes) }
}
