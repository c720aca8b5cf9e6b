import Testing

@Test func SkateStoreTestsBuilds() { #expect(Bool(true)) }
