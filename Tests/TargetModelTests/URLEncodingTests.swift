import Foundation
import Testing
@testable import TargetModel
import StubdTestTags

@Suite(.tags(.inMemory))
struct URLEncodingTests {
    @Test func getParametersGoInTheQueryWithTopLevelKeysSorted() throws {
        let target = TestTarget(task: .requestParameters(parameters: ["b": 1, "a": "x", "10": 6, "9": 7, "B": 2, "_": 4],
                                                         encoding: URLEncoding.default))
        let request = try target.request()
        #expect(request.url == "https://api.example.com/items?10=6&9=7&B=2&_=4&a=x&b=1")
        #expect(request.body == nil)
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test func reservedCharactersAreEscapedExceptSlashAndQuestionMark() throws {
        let value = "a b+c&d=e?f/g%h#i[j]k@l!m$n'o(p)q*r,s;t:u~v-w.x_y"
        let target = TestTarget(task: .requestParameters(parameters: ["q": value], encoding: URLEncoding.default))
        #expect(try target.request().url
            == "https://api.example.com/items?q=a%20b%2Bc%26d%3De?f/g%25h%23i%5Bj%5Dk%40l%21m%24n%27o%28p%29q%2Ar%2Cs%3Bt%3Au~v-w.x_y")
    }

    @Test func unicodeIsUTF8PercentEncoded() throws {
        let target = TestTarget(task: .requestParameters(parameters: ["name": "é😃"], encoding: URLEncoding.queryString))
        #expect(try target.request().url == "https://api.example.com/items?name=%C3%A9%F0%9F%98%83")
    }

    @Test(arguments: [
        (URLEncoding.ArrayEncoding.brackets, "ids%5B%5D=1&ids%5B%5D=2"),
        (.noBrackets, "ids=1&ids=2"),
        (.indexInBrackets, "ids%5B0%5D=1&ids%5B1%5D=2"),
    ])
    func arraysFollowTheArrayEncoding(encoding: URLEncoding.ArrayEncoding, query: String) throws {
        let target = TestTarget(task: .requestParameters(parameters: ["ids": [1, 2]],
                                                         encoding: URLEncoding(destination: .queryString, arrayEncoding: encoding)))
        #expect(try target.request().url == "https://api.example.com/items?\(query)")
    }

    @Test func boolsAreNumericByDefaultAndLiteralOnRequest() throws {
        let numeric = TestTarget(task: .requestParameters(parameters: ["on": true, "off": false], encoding: URLEncoding.default))
        #expect(try numeric.request().url == "https://api.example.com/items?off=0&on=1")
        let literal = TestTarget(task: .requestParameters(parameters: ["on": true],
                                                          encoding: URLEncoding(boolEncoding: .literal)))
        #expect(try literal.request().url == "https://api.example.com/items?on=true")
    }

    @Test func nestedDictionariesUseBracketedKeys() throws {
        let target = TestTarget(task: .requestParameters(parameters: ["user": ["name": "a"]], encoding: URLEncoding.default))
        #expect(try target.request().url == "https://api.example.com/items?user%5Bname%5D=a")
    }

    @Test func postParametersGoInAFormBodyWithCharset() throws {
        let target = TestTarget(method: .post, task: .requestParameters(parameters: ["b": "2", "a": "1 2"], encoding: URLEncoding.default))
        let request = try target.request()
        #expect(request.url == "https://api.example.com/items")
        #expect(request.body == "a=1%202&b=2")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func emptyParametersOnPostStillSetTheFormContentTypeAndAnEmptyBody() throws {
        let request = try TestTarget(method: .post, task: .requestParameters(parameters: [:], encoding: URLEncoding.default)).request()
        #expect(request.body == "")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func aContentTypeSetByTheTargetIsKept() throws {
        let target = TestTarget(method: .post, task: .requestParameters(parameters: ["a": "1"], encoding: URLEncoding.httpBody),
                                headers: ["content-type": "text/plain"])
        #expect(try target.request().headers["content-type"] == "text/plain")
    }

    @Test func deleteUsesTheQueryAndQueryStringForcesItOnPost() throws {
        let delete = TestTarget(method: .delete, task: .requestParameters(parameters: ["id": 7], encoding: URLEncoding.default))
        #expect(try delete.request().url == "https://api.example.com/items?id=7")
        let post = TestTarget(method: .post, task: .requestParameters(parameters: ["id": 7], encoding: URLEncoding.queryString))
        let request = try post.request()
        #expect(request.url == "https://api.example.com/items?id=7")
        #expect(request.body == nil)
    }

    @Test func parametersAreAppendedToTheBaseURLQuery() throws {
        let target = TestTarget(baseURL: URL(string: "https://api.example.com/v1?key=abc")!,
                                task: .requestParameters(parameters: ["page": 2], encoding: URLEncoding.default))
        #expect(try target.request().url == "https://api.example.com/v1/items?key=abc&page=2")
    }
}
