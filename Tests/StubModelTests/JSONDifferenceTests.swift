import Testing
@testable import StubModel
import StubdTestTags

/// Near-miss wording for JSON: each differing field named, and for arrays of another length the
/// elements one side has and the other lacks.
@Suite(.tags(.inMemory)) struct JSONDifferenceTests {
    @Test func arraysOfAnotherLengthNameTheirElements() throws {
        let expected = try JSONParser.parse(#"{"tags": ["ios", "ui"]}"#)
        let got = try JSONParser.parse(#"{"tags": ["ios", "android", "web"]}"#)
        #expect(JSONDifference.between(expected: expected, got: got) == [#"$.tags: expected 2 elements, got 3; missing "ui"; extra "android", "web""#])
        let one = JSONDifference.between(expected: try JSONParser.parse("[1]"), got: try JSONParser.parse("[1, 2]"))
        #expect(one == ["$: expected 1 element, got 2; extra 2"])
    }

    @Test func fieldsAreNamedWithBothValues() throws {
        let differences = JSONDifference.between(expected: try JSONParser.parse(#"{"a": 1, "b": "x"}"#), got: try JSONParser.parse(#"{"a": 2, "c": true}"#))
        #expect(differences == ["$.a: expected 1, got 2", #"$.b: expected "x", missing"#, "$.c: unexpected (true)"])
    }
}
