import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TargetModel
import TargetServing
@testable import StubServer
import RouteChecks
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// Each vector's request as Moya builds it: exact URL, headers and body.
@Suite(.tags(.inMemory))
struct RequestVectorTests {
    @Test func thereAreAtLeastSixtyVectors() {
        #expect(RequestVectors.all().count >= 60)
    }

    @Test(arguments: RequestVectors.all().map(\.name))
    func theBuiltRequestIsByteExact(name: String) throws {
        let vector = RequestVectors.all().first { $0.name == name }!
        let request = try Endpoint(target: vector.target).urlRequest()
        let url = request.url!.absoluteString
        switch vector.url {
        case .exact(let expected):
            #expect(url == expected)
        case .anyOrder(let prefix, let components):
            let parts = url.split(separator: "?", maxSplits: 1)
            #expect(String(parts[0]) == prefix)
            #expect(parts.count == 2 && parts[1].split(separator: "&").map(String.init).sorted() == components.sorted())
        }
        #expect(request.httpMethod == vector.target.method.rawValue)
        #expect((request.allHTTPHeaderFields ?? [:]) == vector.headers)
        let body = request.httpBody.map { [UInt8]($0) }
        switch vector.body {
        case .none: #expect(body == nil)
        case .text(let text): #expect(body == Array(text.utf8), "\(String(decoding: body ?? [], as: UTF8.self))")
        case .bytes(let bytes): #expect(body == bytes)
        case .json(let text): #expect(try body.map { try JSONParser.parse($0) } == JSONParser.parse(text))
        case .formAnyOrder(let components):
            #expect(String(decoding: body ?? [], as: UTF8.self).split(separator: "&").map(String.init).sorted() == components.sorted())
        }
    }

    @Test func theUnreachableVectorsAreWarnedAbout() throws {
        let table = try RouteTable(targets: RequestVectors.all().map(\.target))
        let lint = RouteLint.warnings(table)
        let warned = RequestVectors.all().filter { vector in lint.contains { $0.hasPrefix(vector.name + " ") && $0.contains("unreachable") } }
        #expect(warned.map(\.name) == RequestVectors.all().filter(\.unreachable).map(\.name))
    }
}
