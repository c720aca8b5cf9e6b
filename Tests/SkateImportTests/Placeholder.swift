import Testing

@Test func SkateImportTestsBuilds() { #expect(Bool(true)) }
