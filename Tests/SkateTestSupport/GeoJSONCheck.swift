import Foundation

/// A small structural validator for RFC 7946 GeoJSON, for tests: what the RFC says a document
/// MUST (or, for geometries, what validators such as shapely need) — returned as a list of
/// problems, empty for a valid document. Not a full implementation: the checks our outputs need.
public enum GeoJSONCheck {
    /// Problems of the GeoJSON text `text` (invalid JSON is one problem).
    public static func problems(_ text: String) -> [String] {
        guard let obj = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else { return ["not JSON"] }
        return problems(object: obj, at: "$")
    }

    static let geometryTypes: Set<String> = ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection"]

    static func problems(object: Any, at path: String) -> [String] {
        guard let o = object as? [String: Any] else { return ["\(path): not an object"] }
        guard let type = o["type"] as? String else { return ["\(path): no \"type\""] }
        var out: [String] = []
        switch type {
        case "FeatureCollection":
            // RFC 7946 §7.1: a FeatureCollection MUST NOT have "geometry" or "properties" members.
            for banned in ["geometry", "properties", "coordinates", "geometries"] where o[banned] != nil {
                out.append("\(path): a FeatureCollection must not have a \"\(banned)\" member (§7.1)")
            }
            guard let features = o["features"] as? [Any] else { return out + ["\(path): \"features\" is not an array (§3.3)"] }
            for (i, f) in features.enumerated() {
                guard (f as? [String: Any])?["type"] as? String == "Feature" else { out.append("\(path).features[\(i)]: not a Feature"); continue }
                out += problems(object: f, at: "\(path).features[\(i)]")
            }
        case "Feature":
            // §3.2: "geometry" and "properties" members, each an object or null; no "coordinates".
            for banned in ["coordinates", "geometries", "features"] where o[banned] != nil {
                out.append("\(path): a Feature must not have a \"\(banned)\" member (§7.1)")
            }
            if o["properties"] == nil || !(o["properties"] is [String: Any] || o["properties"] is NSNull) {
                out.append("\(path): \"properties\" must be an object or null (§3.2)")
            }
            guard let g = o["geometry"] else { return out + ["\(path): no \"geometry\" member (§3.2)"] }
            if !(g is NSNull) { out += problems(object: g, at: "\(path).geometry") }
        case let t where geometryTypes.contains(t):
            out += geometryProblems(o, type: t, at: path)
        default:
            out.append("\(path): unknown type \"\(type)\"")
        }
        return out
    }

    /// A position: two or three numbers, longitude −180…180 and latitude −90…90 (§3.1.1, §4).
    static func position(_ v: Any?) -> [Double]? {
        guard let a = v as? [Any], (2...3).contains(a.count) else { return nil }
        let d = a.compactMap { ($0 as? NSNumber)?.doubleValue }
        guard d.count == a.count, abs(d[0]) <= 180, abs(d[1]) <= 90 else { return nil }
        return d
    }

    static func geometryProblems(_ o: [String: Any], type: String, at path: String) -> [String] {
        if type == "GeometryCollection" {
            guard let gs = o["geometries"] as? [Any] else { return ["\(path): \"geometries\" is not an array"] }
            return gs.enumerated().flatMap { problems(object: $0.element, at: "\(path).geometries[\($0.offset)]") }
        }
        func line(_ v: Any?, _ p: String) -> [String] {
            guard let pts = v as? [Any] else { return ["\(p): not an array of positions"] }
            let ps = pts.map(position)
            if ps.contains(where: { $0 == nil }) { return ["\(p): a bad position"] }
            // §3.1.4: two or more positions; a line of one repeated point has no length (invalid in shapely, GEOS).
            if Set(ps.map { $0![0...1].map { $0 } }).count < 2 { return ["\(p): a LineString needs two distinct positions"] }
            return []
        }
        let c = o["coordinates"]
        switch type {
        case "Point": return position(c) == nil ? ["\(path): bad Point position"] : []
        case "MultiPoint": return ((c as? [Any]) ?? [0]).contains { position($0) == nil } ? ["\(path): bad MultiPoint"] : []
        case "LineString": return line(c, path)
        case "MultiLineString": return ((c as? [Any]) ?? []).enumerated().flatMap { line($0.element, "\(path)[\($0.offset)]") }
        default:
            // Polygons: rings of four or more positions, first equal to last (§3.1.6).
            let polys: [Any] = type == "Polygon" ? [c as Any] : ((c as? [Any]) ?? [])
            var out: [String] = []
            for poly in polys {
                for ring in (poly as? [Any]) ?? [] {
                    let ps = ((ring as? [Any]) ?? []).map(position)
                    if ps.count < 4 || ps.contains(where: { $0 == nil }) || ps.first! != ps.last! { out.append("\(path): a bad linear ring") }
                }
            }
            return out
        }
    }
}
