import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import StubdTestSupport
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// Every vector's target served by stubd at once, hit by URLSession with the request a Moya
/// client sends (uploads with the file or a fresh multipart boundary).
@Suite(.serialized, .tags(.socket)) struct VectorEndToEndTests {
    static func wireRequest(_ vector: RequestVector, port: Int) throws -> URLRequest {
        var request = try Endpoint(target: vector.target).urlRequest()
        var components = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)!
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = port
        request.url = components.url
        if let bytes = vector.uploadBody { request.httpBody = Data(bytes) }
        if let parts = vector.multipart {
            let boundary = MultipartEncoding.randomBoundary()
            request.setValue(MultipartEncoding.contentType(boundary: boundary), forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(MultipartEncoding.body(parts, boundary: boundary))
        }
        return request
    }

    @Test func everyVectorGetsItsOwnTargetsSampleResponse() async throws {
        let vectors = RequestVectors.all()
        let server = try TestServer(targets: vectors.map(\.target), redactor: .off)
        defer { server.stop() }
        for vector in vectors where !vector.unreachable {
            let fetched = await HTTPFetch.send(try Self.wireRequest(vector, port: server.port))
            #expect(fetched.status == 200, "\(vector.name): \(fetched.text)")
            if vector.target.method != .head {
                #expect(fetched.body == vector.target.sampleData, "\(vector.name)")
            }
        }
    }

    @Test func oneChangedValueGetsTheNearMissNamingTheDifference() async throws {
        let vectors = RequestVectors.all()
        let server = try TestServer(targets: vectors.map(\.target), redactor: .off)
        defer { server.stop() }
        for vector in vectors where !vector.unreachable {
            var request = try Self.wireRequest(vector, port: server.port)
            let pattern = try #require(try Fixture(target: vector.target)).request
            let expected = Self.mutate(&request, pattern: pattern)
            let fetched = await HTTPFetch.send(request)
            #expect(fetched.status == 404, "\(vector.name)")
            if vector.target.method == .head { continue }
            let report = try JSONParser.parse(Array(fetched.body))
            guard case .array(let closest)? = report["closest"], let first = closest.first,
                  case .array(let differences)? = first["differences"], case .string(let difference)? = differences.first else {
                Issue.record("\(vector.name): no near miss in \(fetched.text)")
                continue
            }
            #expect(first["name"] == .string(vector.name))
            #expect(difference.hasPrefix(expected), "\(vector.name): \(difference)")
        }
    }

    /// Changes one thing the route checks and returns how the near miss must start.
    static func mutate(_ request: inout URLRequest, pattern: RequestPattern) -> String {
        var components = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)!
        if let first = pattern.query.pairs.first {
            components.percentEncodedQuery = (components.percentEncodedQuery ?? "") + "&" + URLEncoding.escape(first.name) + "=changed"
            components.percentEncodedQuery = components.percentEncodedQuery!.split(separator: "&")
                .filter { !$0.hasPrefix(URLEncoding.escape(first.name) + "=") || $0.hasSuffix("=changed") }.joined(separator: "&")
            request.url = components.url
            return "query \(first.name): expected \"\(first.value)\", got \"changed\""
        }
        let body = [UInt8](request.httpBody ?? Data())
        switch pattern.body.match {
        case .form:
            request.httpBody = Data(body + Array("&stubd_extra=1".utf8))
            return "form field stubd_extra: unexpected"
        case .json(let json):
            guard case .object(var members) = json else { break }
            members.append(("stubd_extra", .number(1)))
            request.httpBody = Data(JSONWriter.write(.object(members), pretty: false).utf8)
            return "body field $.stubd_extra: unexpected"
        case .bytes:
            request.httpBody = Data(body + [0x21])
            return "body: expected"
        case .multipart(let parts):
            let boundary = MultipartEncoding.randomBoundary()
            request.setValue(MultipartEncoding.contentType(boundary: boundary), forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(MultipartEncoding.body(Array(parts.dropLast()) + [MultipartPart(name: "other", body: [])], boundary: boundary))
            return "body part \(parts.count) (\(parts.last!.name))"
        case .any, .fields, .contains, .matches, .all, .jsonPath:
            break
        }
        components.percentEncodedPath += "x"
        request.url = components.url
        return components.percentEncodedPath.hasSuffix("/x") ? "path: expected" : "path segment"
    }
}
