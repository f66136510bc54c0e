import Testing
import StubModel
@testable import StubdMatching
@testable import StubdEngine
import StubdTestTags

/// Each request-part matcher without a socket: `matches` on the hit path, `distance` for ranking,
/// `explain` for the 404 report.
@Suite(.tags(.inMemory))
struct MatcherTests {
    static func view(_ method: String = "GET", _ target: String, headers: [NameValue] = [], body: String = "") -> RequestView {
        RequestView(IncomingRequest(method: method, target: target, headers: headers, body: Array(body.utf8)))
    }

    @Test func methodMatcherWeighsAWrongMethodLikeTwoPathCharacters() {
        let matcher = MethodMatcher(method: "POST")
        #expect(matcher.matches(Self.view("POST", "/x")))
        #expect(matcher.distance(Self.view("POST", "/x")) == 0)
        #expect(matcher.distance(Self.view("GET", "/x")) == 8)
        #expect(matcher.explain(Self.view("GET", "/x")) == ["method: expected POST, got GET"])
    }

    @Test func pathMatcherComparesDecodedSegmentsAndNamesTheSegmentThatDiffers() {
        let matcher = PathMatcher(.literal(PathSegments(raw: "/users/octocat")))
        #expect(matcher.matches(Self.view("GET", "/users//octo%63at")))
        #expect(matcher.explain(Self.view("GET", "/users/octocats")) == [#"path segment 2: expected "octocat", got "octocats""#])
        #expect(matcher.explain(Self.view("GET", "/users/octocat/")) == ["path: unexpected trailing /"])
        #expect(matcher.distance(Self.view("GET", "/users/octocats")) == 4)
        #expect(matcher.distance(Self.view("GET", "/users/octocat")) == 0)
        let template = PathMatcher(.template(try! PathTemplate.parse("/users/{login}").get()))
        #expect(template.matches(Self.view("GET", "/users/anyone")))
        #expect(!template.matches(Self.view("GET", "/users/anyone/repos")))
        #expect(template.explain(Self.view("GET", "/users")) == ["path: expected /users/{login}, got /users"])
    }

    @Test func queryMatcherIsAMultisetAndNamesMissingExtraAndChangedPairs() {
        let matcher = QueryMatcher(QueryPattern(pairs: [NameValue("b", "2"), NameValue("a", "1")]))
        #expect(matcher.matches(Self.view("GET", "/q?a=1&b=2")))
        #expect(matcher.matches(Self.view("GET", "/q?b=2&a=1")))
        #expect(!matcher.matches(Self.view("GET", "/q?a=1&b=2&b=2")))
        #expect(matcher.explain(Self.view("GET", "/q?a=1&b=3&c=4")) == [#"query b: expected "2", got "3""#, #"query c: unexpected ("4"); "anyOtherQuery": true on the route's request allows parameters it does not name"#])
        #expect(matcher.explain(Self.view("GET", "/q?a=1")) == [#"query b: expected "2", missing"#])
        #expect(matcher.distance(Self.view("GET", "/q?a=1&b=3&c=4")) == 2)
    }

    @Test func headerMatcherIgnoresNameCaseButNotValue() {
        let matcher = HeaderMatcher(name: "authorization", value: "token t")
        #expect(matcher.matches(Self.view("GET", "/", headers: [NameValue("AUTHORIZATION", "token t")])))
        #expect(matcher.explain(Self.view("GET", "/")) == [#"header authorization: expected "token t", missing"#])
        #expect(matcher.explain(Self.view("GET", "/", headers: [NameValue("Authorization", "token u")]))
            == [#"header authorization: expected "token t", got "token u""#])
    }

    @Test func jsonBodiesMatchByMeaningAndNameTheFieldThatDiffers() throws {
        let matcher = BodyMatcher(pattern: .json(try JSONParser.parse(#"{"a": 1, "b": "/"}"#)))
        #expect(matcher.matches(Self.view("POST", "/", body: #"{"b":"\/","a":1.0}"#)))
        #expect(matcher.explain(Self.view("POST", "/", body: #"{"a":2,"b":"/"}"#)) == ["body field $.a: expected 1, got 2"])
        #expect(matcher.explain(Self.view("POST", "/", body: "a=1")) == [#"body: expected JSON {"a":1,"b":"/"}, got a body that is not JSON"#])
    }

    @Test func theRequestBodyIsParsedOnceForEveryRouteThatLooksAtIt() throws {
        let view = Self.view("POST", "/", body: #"{"a": 1}"#)
        let first = BodyMatcher(pattern: .json(try JSONParser.parse(#"{"a": 2}"#)))
        let second = BodyMatcher(pattern: .json(try JSONParser.parse(#"{"a": 1}"#)))
        #expect(!first.matches(view))
        #expect(view.json == .object([("a", .number(1))]))
        #expect(second.matches(view))
    }

    @Test func formBodiesAreMultisetsInAnyOrder() {
        let matcher = BodyMatcher(pattern: .form([NameValue("z", "1"), NameValue("a", "2")]))
        #expect(matcher.matches(Self.view("POST", "/", body: "a=2&z=1")))
        #expect(matcher.explain(Self.view("POST", "/", body: "a=2&z=1&x=0")) == [#"form field x: unexpected ("0")"#])
    }

    @Test func multipartBodiesMatchPartByPartWithAnyBoundary() {
        let parts = [MultipartPart(name: "caption", fileName: nil, contentType: nil, body: Array("hello".utf8))]
        let matcher = BodyMatcher(pattern: .multipart(parts))
        let body = String(decoding: MultipartEncoding.body(parts, boundary: "b1"), as: UTF8.self)
        #expect(matcher.matches(Self.view("POST", "/", headers: [NameValue("Content-Type", "multipart/form-data; boundary=b1")], body: body)))
        #expect(matcher.explain(Self.view("POST", "/", body: body))
            == ["header content-type: expected multipart/form-data with a boundary, got none"])
        let changed = String(decoding: MultipartEncoding.body([MultipartPart(name: "caption", fileName: nil, contentType: nil,
                                                                             body: Array("hello!".utf8))], boundary: "b2"), as: UTF8.self)
        #expect(matcher.explain(Self.view("POST", "/", headers: [NameValue("Content-Type", "multipart/form-data; boundary=b2")], body: changed))
            == ["body part 1 (caption): expected 5 bytes, got 6 different bytes"])
    }

    @Test func theAnyOtherQueryFixIsNamedOnlyForARouteOnTheRequestsPath() {
        let matchers = RouteMatchers(RequestPattern(method: "GET", path: "/v1/products", query: [NameValue("page", "2")]))
        let fix = #"; "anyOtherQuery": true on the route's request allows parameters it does not name"#
        #expect(matchers.explain(Self.view("GET", "/v1/products?page=2&_=17")) == [#"query _: unexpected ("17")"# + fix])
        let elsewhere = matchers.explain(Self.view("GET", "/v1/orders?page=2&_=17"))
        #expect(elsewhere.contains(#"query _: unexpected ("17")"#), "\(elsewhere)")
        #expect(!elsewhere.joined().contains("anyOtherQuery"), "\(elsewhere)")
        #expect(!matchers.explain(Self.view("POST", "/v1/products?page=2&_=17")).joined().contains("anyOtherQuery"))
    }

    @Test func routeMatchersExplainInReportOrderAndRankByDistance() {
        let pattern = RequestPattern(method: "POST", path: "/a", query: [NameValue("q", "1")], headers: [NameValue("X-K", "v")],
                                     body: .bytes(Array("x".utf8)))
        let matchers = RouteMatchers(pattern)
        let view = Self.view("GET", "/b?q=2", body: "y")
        #expect(matchers.explain(view) == [
            "method: expected POST, got GET", "path segment 1: expected \"a\", got \"b\"", #"query q: expected "1", got "2""#,
            #"header x-k: expected "v", missing"#, "body: expected 1 exact bytes, got 1 different bytes",
        ])
        #expect(matchers.addressDistance(view) == 12)
        #expect(matchers.remainingDistance(view) == 3)
        #expect(!matchers.matchesBeyondPath(view))
        #expect(matchers.matchesBeyondPath(Self.view("POST", "/a?q=1", headers: [NameValue("x-k", "v")], body: "x")))
    }
}
