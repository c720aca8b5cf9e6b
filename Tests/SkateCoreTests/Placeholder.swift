import Testing

@Test func SkateCoreTestsBuilds() { #expect(Bool(true)) }
