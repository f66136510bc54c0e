import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TargetModel
#if os(Linux)
import XCTest
#endif

// What the manual's snippets assume an app has: its API files (targets), a decoded type, and Moya's
// provider. Kept as small as the snippets allow, so a snippet that drifts from stubd's API fails to
// build here (Tests/docs/snippets_test.py generates the snippets beside this file).

/// The pages' account API: a profile to read and write, and a search.
enum AccountAPI: TargetType {
    case profile
    case updateProfile(name: String)
    case search(query: String)

    var baseURL: URL { URL(string: "https://api.example.com")! }
    var path: String {
        switch self {
        case .profile, .updateProfile: return "/v1/me"
        case .search: return "/v1/search"
        }
    }
    var method: TargetModel.Method {
        if case .updateProfile = self { return .put }
        return .get
    }
    var task: Task {
        switch self {
        case .profile: return .requestPlain
        case .updateProfile(let name): return .requestJSONEncodable(["name": name])
        case .search(let query): return .requestParameters(parameters: ["q": query], encoding: URLEncoding.queryString)
        }
    }
    var headers: [String: String]? { nil }
    var sampleData: Data { Data(#"{"id": 7, "name": "Ada"}"#.utf8) }
}

/// The shape `AccountAPI.profile` answers.
struct Profile: Decodable {
    let id: Int
    let name: String
}

/// The UI-test page's user API.
enum UserAPI: TargetType {
    case profile, login, feed

    var baseURL: URL { URL(string: "https://api.example.com")! }
    var path: String { "/v1/\(self)" }
    var method: TargetModel.Method { self == .login ? .post : .get }
    var task: Task { .requestPlain }
    var headers: [String: String]? { nil }
}

/// The demo API `fixtures/` serves (Tests/StubServerTests/GitHubAPI.swift has all of it); the
/// testing page needs `all`, `zen` and `user(login:)`.
enum GitHubAPI: TargetType {
    case zen
    case user(login: String)

    static let all: [GitHubAPI] = [.zen, .user(login: "octocat")]

    var baseURL: URL { URL(string: "https://api.github.com")! }
    var path: String {
        switch self {
        case .zen: return "/zen"
        case .user(let login): return "/users/\(login)"
        }
    }
    var method: TargetModel.Method { .get }
    var task: Task { .requestPlain }
    var headers: [String: String]? { nil }
}

/// A one-off target a test adds for its session: `/zen` failing.
struct FailingZen: TargetType {
    var baseURL: URL { URL(string: "https://api.github.com")! }
    var path: String { "/zen" }
    var method: TargetModel.Method { .get }
    var task: Task { .requestPlain }
    var headers: [String: String]? { nil }
    var sampleResponse: EndpointSampleResponse { .networkResponse(500, Data()) }
}

/// Moya 15.0.3's `MoyaProvider`, as far as the pointing recipes use it: the same initialiser label
/// and closure type, and `defaultEndpointMapping(for:)` (Sources/Moya/MoyaProvider.swift and
/// MoyaProvider+Defaults.swift at tag 15.0.3). stubd's `Moya` product has no provider — the app's
/// test target links the real Moya (with Alamofire), which this machine cannot fetch.
final class MoyaProvider<Target: TargetType> {
    typealias EndpointClosure = (Target) -> Endpoint

    let endpointClosure: EndpointClosure

    init(endpointClosure: @escaping EndpointClosure) {
        self.endpointClosure = endpointClosure
    }

    final class func defaultEndpointMapping(for target: Target) -> Endpoint {
        Endpoint(url: URL(target: target).absoluteString, sampleResponseClosure: { .networkResponse(200, target.sampleData) },
                 method: target.method, task: target.task, httpHeaderFields: target.headers)
    }
}

#if os(Linux)
/// XCUITest's app proxy exists only on Apple platforms; on Linux the UI-test snippet compiles
/// against these two members.
final class XCUIApplication {
    var launchEnvironment: [String: String] = [:]
    func launch() {}
}
#endif
