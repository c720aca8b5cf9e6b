import Testing

@Test func SkateRouteCLITestsBuilds() { #expect(Bool(true)) }
