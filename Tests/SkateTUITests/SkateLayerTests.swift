import SkateCore
import Testing
@testable import SkateTUI

/// A map of five parallel east–west streets whose classes are known from their tags, one of them
/// re-classed by a measurement in the store and one marked steep: the skateability layer must
/// put each class's pen, weight and texture on that street's cells (issue 32 must-have 1).
enum LayerMap {
    /// Street rows (metres north of the origin), on half-dot positions at 2 m/dot.
    static let rows: [Double] = [29, 13, -3, -19, -35]
    /// The cell row each street lands on in `viewport()` (dot row = 24 − y/2, cell = dot / 4).
    static let cellRows = [2, 4, 6, 8, 10]
    /// Tags per street: butter by smoothness, okay by surface, meh pavers, crusty cobbles, untagged.
    static let tags: [(Surface, Smoothness)] = [(.asphalt, .excellent), (.asphalt, .unknown), (.pavingStones, .unknown),
                                                 (.cobblestone, .unknown), (.unknown, .unknown)]
    /// The street a ride measured (its tags say okay, the ride says crusty).
    static let measuredEdge = 1
    /// The street given braking metres.
    static let steepEdge = 2

    static func make() -> SkateMap {
        var m = SkateMap(metadata: MapMetadata(name: "Layer", attribution: "test", sources: [], osmTimestamp: "",
                                               hasElevation: false, inclineTaggedWays: 0, waysKept: 5))
        for (i, y) in rows.enumerated() {
            let a = TinyMap.at(-39, y), b = TinyMap.at(39, y)
            for c in [a, b] { m.nodeLat.append(c.lat); m.nodeLon.append(c.lon); m.nodeFlags.append(0); m.nodeOsmId.append(Int64(m.nodeLat.count)) }
            m.edgeFrom.append(UInt32(2 * i)); m.edgeTo.append(UInt32(2 * i + 1))
            m.edgeLength.append(Float(Geo.distance(a, b)))
            m.edgeHighway.append(HighwayClass.residential.rawValue)
            m.edgeSurface.append(tags[i].0.rawValue); m.edgeSmoothness.append(tags[i].1.rawValue)
            m.edgeFlags.append(0); m.edgeIncline.append(SkateMap.noIncline); m.edgeCrossings.append(0)
            m.edgeName.append(0); m.edgeWayId.append(Int64(i + 1))
            m.edgeViaStart.append(UInt32(m.viaLat.count))
            m.edgeElevStart.append(0)
        }
        m.rebuildIndexes()
        return m
    }

    /// The planner's table for the map with a crusty measurement on `measuredEdge` and 60 braking metres on `steepEdge`.
    static func layer(_ map: SkateMap) -> SkateLayer {
        let k = RoadKnowledge(observations: [measuredEdge: EdgeObservation(rms: 0.3, source: .measured, freshness: 1, count: 3)])
        var t = EdgeTable(map: map, knowledge: k)
        t.derived.brakingMetresFwd[steepEdge] = 60
        return SkateLayer(table: t)
    }

    /// 20×12 cells at 2 m/dot centred on the origin.
    static func viewport() -> MapViewport {
        MapViewport(origin: TinyMap.origin, metresPerDot: 2, size: Size(width: 20, height: 12))
    }
}

@Suite struct SkateLayerTests {
    let map = LayerMap.make()

    func render(_ theme: Theme, layer: Bool = true) -> ScreenBuffer {
        var b = ScreenBuffer(width: 20, height: 12)
        MapRenderer.render(map: map, overlay: nil, viewport: LayerMap.viewport(), theme: theme, into: &b, area: b.area,
                           layer: layer ? LayerMap.layer(map) : nil)
        return b
    }

    /// The class and confidence each street must show.
    let expected: [(RoughnessClass, SkateConfidence)] = [(.butter, .tagged), (.crusty, .solid), (.meh, .tagged), (.crusty, .tagged), (.okay, .guessed)]

    @Test func classAndConfidenceComeFromThePlannersTable() {
        let l = LayerMap.layer(map)
        for (e, want) in expected.enumerated() {
            #expect(l.roughnessClass(ofEdge: e) == want.0, "edge \(e)")
            #expect(l.confidence(ofEdge: e) == want.1, "edge \(e)")
            // The same class the router costs: the table's own estimate.
            #expect(l.roughnessClass(ofEdge: e) == l.table.surfaceEstimate(ofEdge: e).roughnessClass)
        }
        #expect((0..<5).filter { l.isSteep($0) } == [LayerMap.steepEdge])
    }

    @Test(arguments: PaletteScheme.allCases)
    func eachStreetGetsItsClassColourAndWeight(scheme: PaletteScheme) {
        let theme = Theme(colorMode: .ansi256, glyphMode: .unicode, scheme: scheme)
        let b = render(theme)
        for (i, want) in expected.enumerated() where i != LayerMap.steepEdge {
            let y = LayerMap.cellRows[i]
            let pen = theme.streetInk(want.0, want.1).style
            for x in [1, 5, 14, 18] {
                #expect(b[x, y].glyph != " ", "street \(i) drawn at \(x),\(y)")
                #expect(b[x, y].fg == pen.fg, "street \(i) colour at \(x),\(y) (\(scheme))")
                #expect(b[x, y].attrs == pen.attrs, "street \(i) weight at \(x),\(y) (\(scheme))")
            }
        }
        // Classes differ in colour in every palette, confidence in weight.
        let fgs = Set(RoughnessClass.allCases.map { theme.streetInk($0, .tagged).style.fg })
        #expect(fgs.count == 4)
        let weights = Set(SkateConfidence.allCases.map { theme.streetInk(.okay, $0).style.attrs })
        #expect(weights.count == 3)
    }

    @Test func steepStreetIsDashedInTheBrakingColourOverItsClass() {
        let theme = Theme(colorMode: .ansi256, glyphMode: .unicode)
        let b = render(theme)
        let y = LayerMap.cellRows[LayerMap.steepEdge]
        let cells = (0..<20).map { b[$0, y] }
        let braking = theme.steepStreetInk.style.fg, meh = theme.streetInk(.meh, .tagged).style.fg
        #expect(cells.contains { $0.fg == braking })
        #expect(cells.contains { $0.fg == meh })
        // No other street carries the steep colour.
        for (i, row) in LayerMap.cellRows.enumerated() where i != LayerMap.steepEdge {
            #expect(!(0..<20).contains { b[$0, row].fg == braking }, "street \(i)")
        }
    }

    @Test func withoutColourClassesDifferByGlyph() {
        let b = render(Theme(colorMode: .none, glyphMode: .ascii))
        func row(_ i: Int) -> String { (1..<19).map { b[$0, LayerMap.cellRows[i]].glyph }.joined() }
        #expect(row(0) == String(repeating: "-", count: 18))   // butter: a thin line
        #expect(row(1) == String(repeating: "#", count: 18))   // measured crusty
        #expect(row(3) == String(repeating: "#", count: 18))   // crusty cobbles
        #expect(row(4) == String(repeating: "=", count: 18))   // okay: a double line
        #expect(row(2).contains("~"))                           // meh, dashed steep over it
        // Confidence is the weight: bold measured, plain tags, dim guessed.
        #expect(b[5, LayerMap.cellRows[1]].attrs.contains(.bold))
        #expect(b[5, LayerMap.cellRows[4]].attrs.contains(.dim))
        #expect(!b[5, LayerMap.cellRows[3]].attrs.contains(.dim))
        // The grey web without the layer is one texture for every street.
        let grey = render(Theme(colorMode: .none, glyphMode: .ascii), layer: false)
        let glyphs = Set(LayerMap.cellRows.flatMap { y in (1..<19).map { grey[$0, y].glyph } })
        #expect(glyphs == ["."])
    }

    @Test func legendListsWhatTheLayerShows() {
        let theme = Theme(colorMode: .ansi256, glyphMode: .unicode)
        let labels = LegendWidget.entries(theme, skateLayer: true).map(\.label)
        for w in ["butter", "okay", "meh", "crusty", "measured/rated", "from tags", "guessed", "steep, braking"] {
            #expect(labels.contains(w), "\(w)")
        }
        let plain = LegendWidget.entries(theme).map(\.label)
        #expect(!plain.contains("guessed"))
        // Each class's legend sample is drawn in the pen the map uses.
        for (i, c) in RoughnessClass.allCases.enumerated() {
            #expect(LegendWidget.entries(theme, skateLayer: true)[i].style == theme.streetInk(c, .tagged).style)
        }
    }

    @Test func layerKeyTogglesTheLayerAndTheLegend() {
        let app = TUIApp(context: TUIContext(map: map, theme: Theme(colorMode: .ansi256, glyphMode: .unicode), skate: LayerMap.layer(map)))
        var m = app.initialModel(size: Size(width: 160, height: 48))
        m.plan.focus = .map
        let before = app.render(m)
        #expect(!before.lines.joined(separator: "\n").contains("guessed"))
        (m, _) = app.update(m, .key(.char("v")))
        #expect(m.skateLayer)
        let on = app.render(m)
        #expect(on.lines.joined(separator: "\n").contains("guessed"))
        #expect(on.lines.joined(separator: "\n").contains("measured/rated"))
        (m, _) = app.update(m, .key(.char("L")))
        #expect(!app.render(m).lines.joined(separator: "\n").contains("guessed"))
        (m, _) = app.update(m, .key(.char("v")))
        #expect(!m.skateLayer)
    }
}
