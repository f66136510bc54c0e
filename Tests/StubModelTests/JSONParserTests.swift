import Testing
@testable import StubModel
import StubdTestTags

@Suite(.tags(.inMemory))
struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(#"{"a": [1, 2.5, -3e2, true, false, null, "x\u00e9\n\/"]}"#)
        #expect(value == .object([("a", .array([.number(1), .number(2.5), .number(-300), .bool(true), .bool(false), .null, .string("xé\n/")]))]))
    }

    @Test func objectsCompareWithoutKeyOrderAndNumbersByValue() throws {
        #expect(try JSONParser.parse(#"{"a":1,"b":[1.0]}"#) == JSONParser.parse(#"{"b":[1],"a":1.0}"#))
        #expect(try JSONParser.parse(#"{"a":1}"#) != JSONParser.parse(#"{"a":true}"#))
    }

    @Test func errorsGiveLineAndColumn() {
        #expect(throws: JSONSyntaxError(line: 2, column: 3, message: "expected ',' or '}' in object")) {
            try JSONParser.parse("{\"a\": 1\n  \"b\": 2}")
        }
    }

    @Test func duplicateKeysAreRejected() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(#"{"a":1,"a":2}"#) }
    }

    @Test func surrogatePairsDecode() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude03""#) == .string("😃"))
    }

    @Test func writerRoundTrips() throws {
        let text = #"{"b":[1,2.5,"\/x"],"a":{"c":null}}"#
        let value = try JSONParser.parse(text)
        #expect(JSONWriter.write(value, pretty: false) == #"{"b":[1,2.5,"/x"],"a":{"c":null}}"#)
        #expect(try JSONParser.parse(JSONWriter.write(value, pretty: true)) == value)
    }

    /// WireMock's reading (Jackson with comments): comments are space, a repeated key's last value
    /// wins in the first one's place; the strict reading still refuses both.
    @Test func theLenientReadingTakesCommentsAndRepeatedKeys() throws {
        let text = """
            // leading comment
            {"a": 1, /* inside */ "b": "x // not a comment", "a": 2 // trailing
            }
            """
        let value = try JSONParser.parse(Array(text.utf8), lenient: true)
        #expect(JSONWriter.write(value, pretty: false) == #"{"a":2,"b":"x // not a comment"}"#)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(#"{"a": 1,}"#.utf8), lenient: true) }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array("{\"a\": 1} /* never closed".utf8), lenient: true) }
    }
}
