import Foundation
import StubdTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import TargetModel
@testable import StubdEngine

/// An app's API, as a Moya app declares it: what the kit stubs and verifies by target.
enum UserAPI: TargetType {
    case profile
    case login(user: String, password: String)
    case search(query: String, page: Int)

    var baseURL: URL { URL(string: "https://api.example.com/v2")! }
    var path: String {
        switch self {
        case .profile: return "me"
        case .login: return "session"
        case .search: return "search"
        }
    }
    var method: TargetModel.Method {
        if case .login = self { return .post }
        return .get
    }
    var task: TargetModel.Task {
        switch self {
        case .profile: return .requestPlain
        case .login(let user, let password):
            return .requestParameters(parameters: ["user": user, "password": password], encoding: JSONEncoding.default)
        case .search(let query, let page):
            return .requestParameters(parameters: ["q": query, "page": page], encoding: URLEncoding.default)
        }
    }
    var headers: [String: String]? { ["Accept": "application/json"] }
    var sampleData: Data {
        switch self {
        case .profile: return Data(#"{"id":1,"name":"Ada"}"#.utf8)
        case .login: return Data(#"{"token":"sample"}"#.utf8)
        case .search: return Data(#"{"results":["stubd"]}"#.utf8)
        }
    }
}

/// What the app sends: Moya's request for the target, pointed at stubd as docs/MOYA.md's recipe
/// points it (scheme, host and port swapped; base path, query, headers and body kept), in a session.
enum AppClient {
    static func request(_ target: any TargetType, stubd: URL, session: String?) throws -> URLRequest {
        var request = try Endpoint(target: target).urlRequest()
        var url = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)!
        (url.scheme, url.host, url.port) = (stubd.scheme, stubd.host, stubd.port)
        request.url = url.url
        if let session { request.setValue(session, forHTTPHeaderField: "X-Stubd-Session") }
        return request
    }

    /// Status, Content-Type and body as the app sees them, or the error code.
    struct Seen: Equatable {
        var status: Int?
        var contentType: String?
        var body: String
        var errorCode: Int?
    }

    static func send(_ target: any TargetType, stubd: URL, session: String?) async throws -> Seen {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        let urlSession = URLSession(configuration: configuration)
        defer { urlSession.finishTasksAndInvalidate() }
        do {
            let (data, response) = try await urlSession.data(for: try request(target, stubd: stubd, session: session))
            let http = response as? HTTPURLResponse
            return Seen(status: http?.statusCode, contentType: http?.value(forHTTPHeaderField: "Content-Type"),
                        body: String(decoding: data, as: UTF8.self), errorCode: nil)
        } catch {
            return Seen(status: nil, contentType: nil, body: "", errorCode: (error as NSError).code)
        }
    }
}

/// A stubd on 127.0.0.1 with a free port, for one test.
struct KitServer {
    let test: TestServer
    var server: StubdServer { test.server }
    var url: URL { URL(string: server.baseURL)! }

    init(targets: [any TargetType] = []) throws {
        test = try TestServer(targets: targets)
    }

    func stop() { test.stop() }
}
