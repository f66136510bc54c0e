import Foundation
import TargetModel

/// The vector table: every Task case and encoding rule of moya-semantics.md §1–§3, on today's
/// Linux Foundation. Each target has its own path (`/vNN…`) so all can be served at once.
enum RequestVectors {
    static let base = "https://api.example.com"

    static func v(_ number: Int, _ title: String, _ method: TargetModel.Method = .get, base: String = base, path: String? = nil,
                  task: Task = .requestPlain, headers: [String: String]? = nil,
                  url: ExpectedURL, sent: [String: String] = [:], body: ExpectedBody = .none) -> RequestVector {
        let name = String(format: "v%02d %@", number, title)
        let target = VectorTarget(name: name, baseURL: URL(string: base)!, path: path ?? String(format: "/v%02d", number),
                                  method: method, task: task, headers: headers)
        return RequestVector(target: target, url: url, headers: sent, body: body)
    }

    static func u(_ number: Int, _ query: String = "") -> ExpectedURL {
        .exact(String(format: "\(base)/v%02d", number) + (query.isEmpty ? "" : "?" + query))
    }

    static let form = ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"]
    static let json = ["Content-Type": "application/json"]

    struct Issue: Encodable { let title: String }
    struct Stamp: Encodable { let at: Date }
    struct Snake: Encodable { let userName: String; let isAdmin: Bool }

    static func all() -> [RequestVector] {
        let uploadFile = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-vector-upload.bin")
        let uploadBytes: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x10]
        try? Data(uploadBytes).write(to: uploadFile)
        let snakeEncoder = JSONEncoder()
        snakeEncoder.keyEncodingStrategy = .convertToSnakeCase
        snakeEncoder.outputFormatting = [.sortedKeys]
        let optionalNil: Int? = nil
        let avatar = MultipartFormData(provider: .data(Data([1, 2, 3])), name: "avatar", fileName: "a.png", mimeType: "image/png")
        let caption = MultipartFormData(provider: .data(Data("hello".utf8)), name: "caption")

        var vectors: [RequestVector] = [
            // URL(target:) — moya-semantics §1
            v(1, "plain GET", url: u(1)),
            v(2, "empty path keeps baseURL and its query", base: "\(base)/v02/root?X-ABC=123", path: "",
              url: .exact("\(base)/v02/root?X-ABC=123")),
            v(3, "space in path", path: "/v03/John Doe", url: .exact("\(base)/v03/John%20Doe")),
            v(4, "unicode in path", path: "/v04/café/😃", url: .exact("\(base)/v04/caf%C3%A9/%F0%9F%98%83")),
            v(5, "question mark in path is %3F", path: "/v05/search?q=1", url: .exact("\(base)/v05/search%3Fq=1")),
            v(6, "hash in path", path: "/v06/a#b", url: .exact("\(base)/v06/a%23b")),
            v(7, "percent in path is re-encoded", path: "/v07/John%20Doe", url: .exact("\(base)/v07/John%2520Doe")),
            v(8, "brackets in path", path: "/v08/[x]", url: .exact("\(base)/v08/%5Bx%5D")),
            v(9, "sub-delimiters kept in path", path: "/v09/a!$&'()*+,=:@b", url: .exact("\(base)/v09/a!$&'()*+,=:@b")),
            v(10, "trailing slash kept", path: "/v10/users/", url: .exact("\(base)/v10/users/")),
            v(11, "base slash plus path slash join once", base: "\(base)/v11/", path: "/users", url: .exact("\(base)/v11/users")),
            v(12, "base query kept, parameters appended", base: "\(base)/v12?key=abc", path: "items",
              task: .requestParameters(parameters: ["page": 2], encoding: URLEncoding.default), url: .exact("\(base)/v12/items?key=abc&page=2")),
            v(13, "semicolon in path", path: "/v13/a;b", url: .exact("\(base)/v13/a;b")),
            v(14, "path without leading slash", path: "v14/zen", url: .exact("\(base)/v14/zen")),

            // URLEncoding into the query — §3.1
            v(15, "top-level keys sorted by code point", task: .requestParameters(
                parameters: ["b": 1, "a": "x", "10": 6, "9": 7, "B": 2, "_": 4], encoding: URLEncoding.default),
              url: u(15, "10=6&9=7&B=2&_=4&a=x&b=1")),
            v(16, "space is %20", task: .requestParameters(parameters: ["q": "a b"], encoding: URLEncoding.default), url: u(16, "q=a%20b")),
            v(17, "plus is %2B", task: .requestParameters(parameters: ["q": "a+b"], encoding: URLEncoding.default), url: u(17, "q=a%2Bb")),
            v(18, "ampersand and equals escaped", task: .requestParameters(parameters: ["q": "a&b=c"], encoding: URLEncoding.default),
              url: u(18, "q=a%26b%3Dc")),
            v(19, "question mark and slash stay raw", task: .requestParameters(parameters: ["next": "/a?b"], encoding: URLEncoding.default),
              url: u(19, "next=/a?b")),
            v(20, "percent is %25", task: .requestParameters(parameters: ["p": "100%"], encoding: URLEncoding.default), url: u(20, "p=100%25")),
            v(21, "encoded input is double-encoded", task: .requestParameters(parameters: ["p": "%25"], encoding: URLEncoding.default),
              url: u(21, "p=%2525")),
            v(22, "unicode value", task: .requestParameters(parameters: ["name": "é😃"], encoding: URLEncoding.default),
              url: u(22, "name=%C3%A9%F0%9F%98%83")),
            v(23, "newline and tab", task: .requestParameters(parameters: ["t": "a\nb\tc"], encoding: URLEncoding.default),
              url: u(23, "t=a%0Ab%09c")),
            v(24, "reserved delimiters escaped", task: .requestParameters(parameters: ["r": ":#[]@!$'()*,;"], encoding: URLEncoding.default),
              url: u(24, "r=%3A%23%5B%5D%40%21%24%27%28%29%2A%2C%3B")),
            v(25, "array with brackets", task: .requestParameters(parameters: ["ids": [1, 2]], encoding: URLEncoding.default),
              url: u(25, "ids%5B%5D=1&ids%5B%5D=2")),
            v(26, "array without brackets", task: .requestParameters(
                parameters: ["ids": [1, 2]], encoding: URLEncoding(arrayEncoding: .noBrackets)), url: u(26, "ids=1&ids=2")),
            v(27, "array with indexes", task: .requestParameters(
                parameters: ["ids": ["a", "b"]], encoding: URLEncoding(arrayEncoding: .indexInBrackets)), url: u(27, "ids%5B0%5D=a&ids%5B1%5D=b")),
            v(28, "bools numeric", task: .requestParameters(parameters: ["on": true, "off": false], encoding: URLEncoding.default),
              url: u(28, "off=0&on=1")),
            v(29, "bools literal", task: .requestParameters(parameters: ["on": true], encoding: URLEncoding(boolEncoding: .literal)),
              url: u(29, "on=true")),
            v(30, "integers exact", task: .requestParameters(parameters: ["big": Int.max, "neg": -5], encoding: URLEncoding.default),
              url: u(30, "big=9223372036854775807&neg=-5")),
            v(31, "doubles as Linux prints them", task: .requestParameters(parameters: ["a": 1.5, "b": 1.0], encoding: URLEncoding.default),
              url: u(31, "a=1.5&b=1.0")),
            v(32, "nested dictionary", task: .requestParameters(parameters: ["user": ["name": "a"]], encoding: URLEncoding.default),
              url: u(32, "user%5Bname%5D=a")),
            v(33, "nested dictionary keys in random order", task: .requestParameters(
                parameters: ["f": ["a": "1", "b": "2", "c": "3"]], encoding: URLEncoding.default),
              url: .anyOrder("\(base)/v33", ["f%5Ba%5D=1", "f%5Bb%5D=2", "f%5Bc%5D=3"])),
            v(34, "array inside a dictionary", task: .requestParameters(parameters: ["u": ["tags": ["x", "y"]]], encoding: URLEncoding.default),
              url: u(34, "u%5Btags%5D%5B%5D=x&u%5Btags%5D%5B%5D=y")),
            v(35, "empty array leaves a bare question mark", task: .requestParameters(parameters: ["ids": [Int]()], encoding: URLEncoding.default),
              url: .exact("\(base)/v35?")),
            v(36, "empty parameters leave the URL alone", task: .requestParameters(parameters: [:], encoding: URLEncoding.default), url: u(36)),
            v(37, "DELETE uses the query", .delete, task: .requestParameters(parameters: ["id": 7], encoding: URLEncoding.default), url: u(37, "id=7")),
            v(38, "HEAD uses the query", .head, task: .requestParameters(parameters: ["id": 8], encoding: URLEncoding.default), url: u(38, "id=8")),
            v(39, "queryString forces the query on POST", .post, task: .requestParameters(parameters: ["id": 9], encoding: URLEncoding.queryString),
              url: u(39, "id=9")),
            v(40, "NSNull prints as <null>", task: .requestParameters(parameters: ["n": NSNull()], encoding: URLEncoding.default),
              url: u(40, "n=%3Cnull%3E")),
            v(41, "a nil Optional prints as nil", task: .requestParameters(parameters: ["limit": optionalNil as Any], encoding: URLEncoding.default),
              url: u(41, "limit=nil")),

            // URLEncoding into the body
            v(42, "POST form body", .post, task: .requestParameters(parameters: ["b": "2", "a": "1 2"], encoding: URLEncoding.default),
              url: u(42), sent: form, body: .text("a=1%202&b=2")),
            v(43, "PUT form body", .put, task: .requestParameters(parameters: ["x": "y"], encoding: URLEncoding.default),
              url: u(43), sent: form, body: .text("x=y")),
            v(44, "PATCH form body", .patch, task: .requestParameters(parameters: ["x": true], encoding: URLEncoding.default),
              url: u(44), sent: form, body: .text("x=1")),
            v(45, "OPTIONS form body", .options, task: .requestParameters(parameters: ["x": "o"], encoding: URLEncoding.default),
              url: u(45), sent: form, body: .text("x=o")),
            v(46, "POST with empty parameters: empty body, form type", .post, task: .requestParameters(parameters: [:], encoding: URLEncoding.default),
              url: u(46), sent: form, body: .text("")),
            v(47, "a target Content-Type is kept", .post, task: .requestParameters(parameters: ["a": "1"], encoding: URLEncoding.httpBody),
              headers: ["content-type": "text/plain"], url: u(47), sent: ["content-type": "text/plain"], body: .text("a=1")),
            v(48, "form with nested dictionary in random order", .post, task: .requestParameters(
                parameters: ["u": ["a": "1", "b": "2"], "z": [1, 2]], encoding: URLEncoding.default),
              url: u(48), sent: form, body: .formAnyOrder(["u%5Ba%5D=1", "u%5Bb%5D=2", "z%5B%5D=1", "z%5B%5D=2"])),
            v(49, "DELETE with httpBody", .delete, task: .requestParameters(parameters: ["why": "spam"], encoding: URLEncoding.httpBody),
              url: u(49), sent: form, body: .text("why=spam")),

            // JSONEncoding — §3.2
            v(50, "JSON body", .post, task: .requestParameters(parameters: ["n": 1], encoding: JSONEncoding.default),
              url: u(50), sent: json, body: .text(#"{"n":1}"#)),
            v(51, "nested JSON body", .post, task: .requestParameters(
                parameters: ["user": ["name": "a", "tags": ["x"]], "ok": true], encoding: JSONEncoding.default),
              url: u(51), sent: json, body: .json(#"{"ok":true,"user":{"tags":["x"],"name":"a"}}"#)),
            v(52, "JSON escapes slashes", .post, task: .requestParameters(parameters: ["u": "a/b"], encoding: JSONEncoding.default),
              url: u(52), sent: json, body: .text(#"{"u":"a\/b"}"#)),
            v(53, "JSON with empty parameters is {}", .post, task: .requestParameters(parameters: [:], encoding: JSONEncoding.default),
              url: u(53), sent: json, body: .text("{}")),
            v(54, "JSON keeps a target Content-Type", .post, task: .requestParameters(parameters: ["a": 1], encoding: JSONEncoding.default),
              headers: ["Content-Type": "application/vnd.api+json"], url: u(54), sent: ["Content-Type": "application/vnd.api+json"],
              body: .json(#"{"a":1}"#)),
            v(55, "pretty-printed JSON", .post, task: .requestParameters(parameters: ["a": 1], encoding: JSONEncoding.prettyPrinted),
              url: u(55), sent: json, body: .text("{\n  \"a\" : 1\n}")),
            v(56, "JSON double 1.0 is 1", .post, task: .requestParameters(parameters: ["d": 1.0], encoding: JSONEncoding.default),
              url: u(56), sent: json, body: .text(#"{"d":1}"#)),

            // Encodable — §3.3
            v(57, "JSONEncodable", .post, task: .requestJSONEncodable(Issue(title: "Bug/1")), url: u(57), sent: json,
              body: .text(#"{"title":"Bug\/1"}"#)),
            v(58, "custom JSONEncoder: snake case, sorted", .post, task: .requestCustomJSONEncodable(
                Snake(userName: "o", isAdmin: false), encoder: snakeEncoder),
              url: u(58), sent: json, body: .text(#"{"is_admin":false,"user_name":"o"}"#)),
            v(59, "dates deferred to Date", .post, task: .requestJSONEncodable(Stamp(at: Date(timeIntervalSinceReferenceDate: 100))),
              url: u(59), sent: json, body: .text(#"{"at":100}"#)),

            // Data and composites — §2
            v(60, "requestData verbatim, no Content-Type", .post, task: .requestData(Data("raw=1&x".utf8)), url: u(60), body: .text("raw=1&x")),
            v(61, "binary requestData", .put, task: .requestData(Data([0, 255, 1, 254])), url: u(61), body: .bytes([0, 255, 1, 254])),
            v(62, "composite data: query plus body", .post, task: .requestCompositeData(bodyData: Data("b".utf8), urlParameters: ["q": "1"]),
              url: u(62, "q=1"), body: .text("b")),
            v(63, "composite data with no URL parameters", .post, task: .requestCompositeData(bodyData: Data("b".utf8), urlParameters: [:]),
              url: u(63), body: .text("b")),
            v(64, "composite parameters: JSON body plus query", .post, task: .requestCompositeParameters(
                bodyParameters: ["a": 1], bodyEncoding: JSONEncoding.default, urlParameters: ["page": 2]),
              url: u(64, "page=2"), sent: json, body: .text(#"{"a":1}"#)),
            v(65, "composite parameters: form body plus query", .put, task: .requestCompositeParameters(
                bodyParameters: ["a": "x y"], bodyEncoding: URLEncoding.httpBody, urlParameters: ["v": true]),
              url: u(65, "v=1"), sent: form, body: .text("a=x%20y")),

            // Downloads — §2
            v(66, "download destination is a plain request", task: .downloadDestination({ url, _ in (url, []) }), url: u(66)),
            v(67, "download parameters encode like requestParameters", task: .downloadParameters(
                parameters: ["f": "pdf"], encoding: URLEncoding.default, destination: { url, _ in (url, []) }), url: u(67, "f=pdf")),

            // Headers
            v(68, "target headers are sent", headers: ["Authorization": "Bearer t", "X-Trace": "1"], url: u(68),
              sent: ["Authorization": "Bearer t", "X-Trace": "1"]),
            v(69, "a target Content-Type on raw data", .post, task: .requestData(Data("<a/>".utf8)), headers: ["Content-Type": "application/xml"],
              url: u(69), sent: ["Content-Type": "application/xml"], body: .text("<a/>")),
        ]

        // Uploads: Moya's URLRequest carries no body; the client streams the file or the parts.
        var file = v(70, "uploadFile streams the file", .post, task: .uploadFile(uploadFile), url: u(70))
        file.uploadBody = uploadBytes
        vectors.append(file)
        var multipart = v(71, "multipart parts", .post, task: .uploadMultipart([avatar, caption]), url: u(71))
        multipart.multipart = [MultipartPart(name: "avatar", fileName: "a.png", contentType: "image/png", body: [1, 2, 3]),
                               MultipartPart(name: "caption", body: Array("hello".utf8))]
        vectors.append(multipart)
        var composite = v(72, "multipart plus query", .put, task: .uploadCompositeMultipart([caption], urlParameters: ["draft": 1]),
                          url: u(72, "draft=1"))
        composite.multipart = [MultipartPart(name: "caption", body: Array("hello".utf8))]
        vectors.append(composite)

        // Built by Moya but never sent by Alamofire.
        var getWithBody = v(73, "GET with a JSON body", task: .requestParameters(parameters: ["a": 1], encoding: JSONEncoding.default),
                            url: u(73), sent: json, body: .text(#"{"a":1}"#))
        getWithBody.unreachable = true
        vectors.append(getWithBody)
        return vectors
    }
}
