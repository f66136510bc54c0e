import Foundation
import Testing
import TargetModel
import StubdTestTags

@Suite(.tags(.inMemory))
struct EndpointTests {
    @Test func anEmptyPathKeepsTheBaseURLVerbatim() throws {
        let target = TestTarget(baseURL: URL(string: "http://example.com/123/somepath?X-ABC-Asd=123")!, path: "")
        #expect(try target.request().url == "http://example.com/123/somepath?X-ABC-Asd=123")
    }

    @Test func aQuestionMarkInThePathIsEncodedNotAQuery() throws {
        #expect(try TestTarget(path: "search?q=1").request().url == "https://api.example.com/search%3Fq=1")
    }

    @Test func spacesAndPercentInThePathAreEncoded() throws {
        #expect(try TestTarget(path: "/users/John Doe").request().url == "https://api.example.com/users/John%20Doe")
        #expect(try TestTarget(path: "/users/John%20Doe").request().url == "https://api.example.com/users/John%2520Doe")
    }

    @Test func slashesJoinOnceOnThisFoundation() throws {
        let target = TestTarget(baseURL: URL(string: "https://h/v1/")!, path: "/users")
        #expect(try target.request().url == "https://h/v1/users")
    }

    @Test func requestDataIsSentVerbatimWithoutContentType() throws {
        let request = try TestTarget(method: .post, task: .requestData(Data("raw bytes".utf8))).request()
        #expect(request.body == "raw bytes")
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test func jsonEncodableSetsContentTypeOnlyWhenAbsent() throws {
        struct Body: Encodable { let url = "a/b" }
        let plain = try TestTarget(method: .post, task: .requestJSONEncodable(Body())).request()
        #expect(plain.body == #"{"url":"a\/b"}"#)
        #expect(plain.headers["Content-Type"] == "application/json")
        let custom = try TestTarget(method: .post, task: .requestJSONEncodable(Body()),
                                    headers: ["Content-Type": "application/vnd.api+json"]).request()
        #expect(custom.headers["Content-Type"] == "application/vnd.api+json")
    }

    @Test func jsonParameterEncodingWritesTheDictionary() throws {
        let request = try TestTarget(method: .post, task: .requestParameters(parameters: ["n": 1], encoding: JSONEncoding.default)).request()
        #expect(request.body == #"{"n":1}"#)
        #expect(request.headers["Content-Type"] == "application/json")
    }

    @Test func invalidJSONParametersThrowParameterEncoding() {
        #expect(throws: MoyaError.self) {
            try TestTarget(method: .post, task: .requestParameters(parameters: ["d": Date()], encoding: JSONEncoding.default)).request()
        }
    }

    @Test func compositeDataPutsParametersInTheQueryAndDataInTheBody() throws {
        let request = try TestTarget(method: .post, task: .requestCompositeData(bodyData: Data("x".utf8), urlParameters: ["a": 1])).request()
        #expect(request.url == "https://api.example.com/items?a=1")
        #expect(request.body == "x")
    }

    @Test func compositeParametersWithAQueryBodyEncodingIsAnErrorNotACrash() {
        #expect(throws: MoyaError.self) {
            try TestTarget(method: .post, task: .requestCompositeParameters(
                bodyParameters: ["a": 1], bodyEncoding: URLEncoding.queryString, urlParameters: [:])).request()
        }
    }

    @Test func targetHeadersAreSent() throws {
        #expect(try TestTarget(headers: ["Authorization": "token t"]).request().headers["Authorization"] == "token t")
    }
}
