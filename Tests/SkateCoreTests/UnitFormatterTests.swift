import SkateCore
import Testing

/// `UnitFormatter`'s boundaries in both systems and `UnitSystem.active`'s task-local override.
@Suite struct UnitFormatterTests {
    @Test func metricDistancesSwitchToKilometresAtOneKilometre() {
        #expect(UnitFormatter.distance(850, in: .metric) == "850 m")
        #expect(UnitFormatter.distance(999, in: .metric) == "999 m")
        #expect(UnitFormatter.distance(1000, in: .metric) == "1.0 km")
        #expect(UnitFormatter.distance(1234, decimals: 2, in: .metric) == "1.23 km")
    }

    @Test func imperialDistancesAreFeetUnderATenthOfAMileThenMiles() {
        #expect(UnitFormatter.distance(120, in: .imperial) == "394 ft")
        #expect(UnitFormatter.distance(160, in: .imperial) == "525 ft")   // 0.0994 mi
        #expect(UnitFormatter.distance(161, in: .imperial) == "0.1 mi")   // 0.1000 mi
        #expect(UnitFormatter.distance(1126.5, in: .imperial) == "0.7 mi")
        #expect(UnitFormatter.distance(UnitFormatter.metresPerMile, decimals: 2, in: .imperial) == "1.00 mi")
    }

    @Test func lengthsAndSpeedsInBothSystems() {
        #expect(UnitFormatter.length(30, in: .metric) == "30 m")
        #expect(UnitFormatter.length(30, in: .imperial) == "98 ft")
        #expect(UnitFormatter.lengthNumber(0.3048 * 250, in: .imperial) == "250")
        #expect(UnitFormatter.speed(12 / 3.6, in: .metric) == "12 km/h")
        #expect(UnitFormatter.speed(7 * UnitFormatter.metresPerMile / 3600, in: .imperial) == "7 mph")
        #expect(UnitFormatter.speed(5, decimals: 1, in: .imperial) == "11.2 mph")
    }

    @Test func theTaskLocalOverridesTheProcessDefaultOnlyInsideItsScope() {
        #expect(UnitSystem.active == .metric)
        #expect(UnitFormatter.distance(2000) == "2.0 km")
        UnitSystem.$current.withValue(.imperial) {
            #expect(UnitSystem.active == .imperial)
            #expect(UnitFormatter.distance(2000) == "1.2 mi")
            #expect(UnitFormatter.speed(10) == "22 mph")
            #expect(PlaceListing.distanceText(4200) == "2.6 mi")
        }
        #expect(UnitSystem.active == .metric)
    }
}
