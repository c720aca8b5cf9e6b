import Testing

@Test func SkateTUITestsBuilds() { #expect(Bool(true)) }
