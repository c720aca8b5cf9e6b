import SkateCore

/// Geohash encoding (Niemeyer's base-32 interleaved lat/lon bisection).
public enum Geohash {
    /// Precision the store keeps: 8 characters ≈ 38 m × 19 m cells, about one hazard merge radius.
    public static let storePrecision = 8

    static let alphabet = Array("0123456789bcdefghjkmnpqrstuvwxyz")

    /// The geohash of `c` with `precision` characters (1…12).
    public static func encode(_ c: Coordinate, precision: Int = storePrecision) -> String {
        var latLo = -90.0, latHi = 90.0, lonLo = -180.0, lonHi = 180.0
        var out: [Character] = []
        out.reserveCapacity(precision)
        var bits = 0, value = 0
        var evenBit = true  // bits alternate lon, lat, lon… starting with longitude
        while out.count < max(1, min(precision, 12)) {
            if evenBit {
                let mid = (lonLo + lonHi) / 2
                if c.lon >= mid { value = value << 1 | 1; lonLo = mid } else { value <<= 1; lonHi = mid }
            } else {
                let mid = (latLo + latHi) / 2
                if c.lat >= mid { value = value << 1 | 1; latLo = mid } else { value <<= 1; latHi = mid }
            }
            evenBit.toggle()
            bits += 1
            if bits == 5 {
                out.append(alphabet[value])
                bits = 0; value = 0
            }
        }
        return String(out)
    }

    /// The cell of a geohash: its south-west and north-east corners, or nil for invalid text.
    public static func decodeBounds(_ hash: String) -> (sw: Coordinate, ne: Coordinate)? {
        var latLo = -90.0, latHi = 90.0, lonLo = -180.0, lonHi = 180.0
        var evenBit = true
        for ch in hash.lowercased() {
            guard let v = alphabet.firstIndex(of: ch) else { return nil }
            for shift in stride(from: 4, through: 0, by: -1) {
                let bit = (v >> shift) & 1
                if evenBit {
                    let mid = (lonLo + lonHi) / 2
                    if bit == 1 { lonLo = mid } else { lonHi = mid }
                } else {
                    let mid = (latLo + latHi) / 2
                    if bit == 1 { latLo = mid } else { latHi = mid }
                }
                evenBit.toggle()
            }
        }
        return (Coordinate(lat: latLo, lon: lonLo), Coordinate(lat: latHi, lon: lonHi))
    }
}
