import FoundationEssentials
import SkateCore

/// JSON and GeoJSON views of the store's contents.
public enum StoreExports {
    /// `d` in UTC to the second, "2026-11-25T18:55:55Z" (fractions of a second dropped): the
    /// form `ISO8601DateFormatter` with `.withInternetDateTime` wrote before.
    static func iso(_ d: Date) -> String {
        ISO8601Time.format(d.timeIntervalSince1970)
    }

    /// One hazard as a JSON object (for `hazards list --json`), keys in snake_case like every other
    /// JSON document the CLI writes.
    public static func json(_ s: HazardState, includeReporter: Bool = true) -> JSONValue {
        let h = s.hazard
        var o: JSONObject = [
            "id": .int(h.id), "kind": .string(h.kind.rawValue), "severity": .int(Int64(h.severity)),
            "lat": JSONValue.rounded(h.position.lat, 7), "lon": JSONValue.rounded(h.position.lon, 7),
            "geohash": .string(h.geohash), "source": .string(h.source.rawValue),
            "created_at": .string(iso(h.createdAt)), "last_confirmed_at": .string(iso(h.lastConfirmedAt)),
            "expires_at": .string(iso(s.expiresAt)),
            "confirmations": .int(Int64(h.confirmations)), "gone_votes": .int(Int64(h.goneVotes)),
            "confidence": JSONValue.rounded(s.confidence, 3), "live": .bool(s.isLive),
        ]
        if includeReporter {
            o["reporter"] = .string(h.reporter)
            o["reporter_trust"] = JSONValue.rounded(s.reporterTrust, 3)
        }
        return .object(o)
    }

    /// Hazards as a GeoJSON FeatureCollection of Points (reporter names left out: exports leave the machine).
    public static func hazardsGeoJSON(_ states: [HazardState]) -> JSONValue {
        .object([
            "type": .string("FeatureCollection"),
            DocumentSchema.key: .string(DocumentSchema.name("hazards.geojson")),
            "features": .array(states.map { s in
                .object([
                    "type": .string("Feature"),
                    "geometry": .object(["type": .string("Point"), "coordinates": .array([
                        JSONValue.rounded(s.hazard.position.lon, 7), JSONValue.rounded(s.hazard.position.lat, 7)])]),
                    "properties": json(s, includeReporter: false),
                ])
            }),
        ])
    }

    /// Disagreements as a GeoJSON FeatureCollection of LineStrings with what the tags say and
    /// what rides measured, plus a link to the way for mappers.
    public static func disagreementsGeoJSON(_ items: [SurfaceDisagreement], map: SkateMap) -> JSONValue {
        .object([
            "type": .string("FeatureCollection"),
            DocumentSchema.key: .string(DocumentSchema.name("disagreements.geojson")),
            "features": .array(items.map { d in
                let coords = map.geometry(ofEdge: d.edge).map { JSONValue.array([JSONValue.rounded($0.lon, 7), JSONValue.rounded($0.lat, 7)]) }
                return .object([
                    "type": .string("Feature"),
                    "geometry": .object(["type": .string("LineString"), "coordinates": .array(coords)]),
                    "properties": .object([
                        "osm_way": .int(d.key.wayId),
                        "osm_url": .string("https://www.openstreetmap.org/way/\(d.key.wayId)"),
                        "from_node": .int(d.key.fromNode), "to_node": .int(d.key.toNode),
                        "name": .string(d.name),
                        "surface": .string(d.surface.name), "smoothness": .string(d.smoothness.name),
                        "implied_class": .string(d.implied.name),
                        "measured_class": .string(d.measuredClass.name),
                        "measured_rms_g": JSONValue.rounded(d.measured.rms, 3),
                        "measurements": .int(Int64(d.measured.count)),
                        "freshness": JSONValue.rounded(d.measured.freshness, 3),
                    ]),
                ])
            }),
        ])
    }
}
