import Testing

@Test func SkateRideTestsBuilds() { #expect(Bool(true)) }
