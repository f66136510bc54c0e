import Testing
import StubModel
import StubdTestTags

/// Query and form decoding: `+` is a space and `%2B` a plus (the form encoding, WHATWG URL query
/// parsing); the literal reading stays available for fixtures written before; paths keep `+`.
@Suite(.tags(.inMemory))
struct FormCodingTests {
    @Test(arguments: [
        ("q=swift+stub", "swift stub"),
        ("q=swift%20stub", "swift stub"),
        ("q=a%2Bb", "a+b"),
        ("q=a+%2B+b", "a + b"),
        ("q=100%", "100%"),          // an invalid escape is kept as written
        ("q=%zz+x", "%zz x"),
        ("q=%E2%9C%93", "✓"),
        ("q=", ""),
        ("q", ""),
    ])
    func plusIsASpaceAndPercent2BAPlus(query: String, value: String) {
        #expect(FormCoding.decodePairs(query) == [NameValue("q", value)])
    }

    @Test func theLiteralReadingKeepsPlus() {
        #expect(FormCoding.decodePairs("q=swift+stub&n+1=x", plusIsSpace: false) == [NameValue("q", "swift+stub"), NameValue("n+1", "x")])
        #expect(FormCoding.decodePairs("q=swift+stub&n+1=x") == [NameValue("q", "swift stub"), NameValue("n 1", "x")])
        #expect(FormCoding.hasPlus("a+b") && !FormCoding.hasPlus("a%2Bb"))
    }

    @Test func pathSegmentsKeepPlus() {
        #expect(FormCoding.decode("c++") == "c++")
        #expect(PathSegments(raw: "/tags/c++/a%20b").segments == ["tags", "c++", "a b"])
    }
}
