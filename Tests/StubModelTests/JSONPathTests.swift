import Testing
import StubModel
import StubdTestTags

/// Socket-free: the JSONPath forms `matchesJsonPath` uses, parsed and evaluated.
@Suite(.tags(.inMemory)) struct JSONPathTests {
    static let document = try! JSONParser.parse(#"""
        {"user": {"name": "ada", "roles": ["admin", "dev"]},
         "items": [{"id": 3, "tag": "a"}, {"id": 7, "tag": "b", "meta": {"name": "deep"}}],
         "a-b": true}
        """#)

    static func select(_ expression: String) throws -> [JSONValue] {
        guard case .success(let path) = JSONPath.parse(expression) else { throw JSONPath.Problem(message: "did not parse: \(expression)") }
        return path.select(in: document)
    }

    @Test func membersIndexesWildcardsAndDescendants() throws {
        #expect(try Self.select("$.user.name") == [.string("ada")])
        #expect(try Self.select("$['user']['name']") == [.string("ada")])
        #expect(try Self.select("$.user.roles[1]") == [.string("dev")])
        #expect(try Self.select("$.user.roles[-1]") == [.string("dev")])
        #expect(try Self.select("$.items[*].id") == [.number(3), .number(7)])
        #expect(try Self.select("$.user.*").count == 2)
        #expect(try Self.select("$..name") == [.string("ada"), .string("deep")])
        #expect(try Self.select("$.a-b") == [.bool(true)])
        #expect(try Self.select("$.user.missing").isEmpty)
        #expect(try Self.select("$.items[5]").isEmpty)
    }

    @Test func filtersCompareStringsNumbersAndPresence() throws {
        #expect(try Self.select("$.items[?(@.id == 7)].tag") == [.string("b")])
        #expect(try Self.select("$.items[?(@.tag == 'a')].id") == [.number(3)])
        #expect(try Self.select(#"$.items[?(@.tag != "a")].id"#) == [.number(7)])
        #expect(try Self.select("$.items[?(@.id > 3)].id") == [.number(7)])
        #expect(try Self.select("$.items[?(@.id <= 3)].id") == [.number(3)])
        #expect(try Self.select("$.items[?(@.meta)].id") == [.number(7)])
        #expect(try Self.select("$.items[?(@.meta.name == 'deep')].id") == [.number(7)])
        #expect(try Self.select("$.items[?(@.id == 9)]").isEmpty)
        #expect(try Self.select("$[?(@.user)]").count == 1, "a filter on an object tests the object itself")
    }

    @Test func expressionsOutsideTheSubsetSayWhatIsSupported() {
        for bad in ["user.name", "$.items[?(@.id in [1,2])]", "$.items[1:3]", "$.a b"] {
            guard case .failure(let problem) = JSONPath.parse(bad) else {
                Issue.record("\(bad) should not parse")
                continue
            }
            #expect(!problem.message.isEmpty)
        }
    }
}
