import Testing
import StubModel
@testable import StubdMatching
@testable import StubdEngine
import StubdTestTags

/// Content-Type by meaning: every client's spelling of the route's media type matches.
@Suite(.tags(.inMemory))
struct MediaTypeMatcherTests {
    static func view(_ contentType: String?) -> RequestView {
        RequestView(IncomingRequest(method: "POST", target: "/", headers: contentType.map { [NameValue("Content-Type", $0)] } ?? []))
    }

    @Test(arguments: ["application/json", "application/json; charset=utf-8", "application/json;charset=UTF-8", "Application/JSON",
                      "application/json ; charset=\"utf-8\""])
    func aRouteWithoutParametersAcceptsAnySpelling(contentType: String) throws {
        let matcher = try #require(MediaTypeMatcher(name: "content-type", value: "application/json"))
        #expect(matcher.matches(Self.view(contentType)))
        #expect(matcher.explain(Self.view(contentType)).isEmpty)
    }

    @Test func aRouteCharsetOfUTF8AcceptsARequestWithoutOne() throws {
        let matcher = try #require(MediaTypeMatcher(name: "content-type", value: "application/x-www-form-urlencoded; charset=utf-8"))
        #expect(matcher.matches(Self.view("application/x-www-form-urlencoded")))
        #expect(matcher.matches(Self.view("application/x-www-form-urlencoded; charset=UTF-8")))
        #expect(!matcher.matches(Self.view("application/x-www-form-urlencoded; charset=latin1")))
        #expect(matcher.explain(Self.view("application/x-www-form-urlencoded; charset=latin1"))
            == ["header content-type: expected charset=utf-8, got charset=latin1"])
    }

    @Test func anotherMediaTypeOrNoneIsExplained() throws {
        let matcher = try #require(MediaTypeMatcher(name: "content-type", value: "application/json"))
        #expect(matcher.explain(Self.view("text/plain")) == ["header content-type: expected media type application/json, got text/plain"])
        #expect(matcher.explain(Self.view(nil)) == [#"header content-type: expected "application/json", missing"#])
        #expect(matcher.explain(Self.view("json")) == [#"header content-type: expected "application/json", got "json" (not a media type)"#])
        #expect(MediaTypeMatcher(name: "x-kind", value: "application/json") == nil)
    }
}
