// An app's API file, exactly as it lives in the iOS app (Moya 15, the "MyServerType" style).
// The stubd targets package next to it compiles this very file through a symbolic link.
import Foundation
import Moya

/// What every endpoint of our servers adds to Moya's TargetType.
protocol MyServerType: TargetType {
    var stubBehavior: StubBehavior { get }
    var sampleResponse: EndpointSampleResponse { get }
}

extension MyServerType {
    var headers: [String: String]? { ["Content-Type": "application/json", "x-flag": "iOS"] }
    var stubBehavior: StubBehavior { .never }
    var sampleResponse: EndpointSampleResponse { .networkResponse(200, sampleData) }
}

/// The app's model of a profile, decoded from `AccountAPI.profile`'s answer.
struct Profile: Decodable {
    let id: Int
    let name: String
}

/// The app's model of a search's answer.
struct SearchResults: Decodable {
    let results: [String]
}

enum AccountAPI {
    case profile
    case updateProfile(name: String)
    case avatar(id: Int)
    case search(query: String)
}

extension AccountAPI: MyServerType {
    var baseURL: URL { URL(string: "https://api.myserver.example/v1")! }

    var path: String {
        switch self {
        case .profile, .updateProfile: return "me"
        case .avatar(let id): return "avatars/\(id)"
        case .search: return "search"
        }
    }

    var method: Moya.Method {
        switch self {
        case .profile, .avatar, .search: return .get
        case .updateProfile: return .put
        }
    }

    var task: Moya.Task {
        switch self {
        case .profile, .avatar: return .requestPlain
        case .updateProfile(let name):
            return .requestParameters(parameters: ["name": name], encoding: JSONEncoding.default)
        case .search(let query):
            return .requestParameters(parameters: ["q": query, "limit": 20], encoding: URLEncoding.queryString)
        }
    }

    var sampleData: Data {
        switch self {
        case .profile: return Data(#"{"id":1,"name":"Ada"}"#.utf8)
        case .updateProfile(let name): return Data(#"{"id":1,"name":"\#(name)"}"#.utf8)
        case .avatar: return Data("PNG".utf8)
        case .search: return Data(#"{"results":[]}"#.utf8)
        }
    }

    var stubBehavior: StubBehavior {
        switch self {
        case .avatar: return .delayed(seconds: 0.2)
        default: return .never
        }
    }
}

/// The old server, still called for the profile: same path as AccountAPI.profile, another host.
enum LegacyAPI {
    case profile
}

extension LegacyAPI: MyServerType {
    var baseURL: URL { URL(string: "https://legacy.myserver.example/v1")! }
    var path: String { "me" }
    var method: Moya.Method { .get }
    var task: Moya.Task { .requestPlain }
    var sampleData: Data { Data(#"{"id":1,"name":"Ada","legacy":true}"#.utf8) }
}

enum MediaAPI {
    case feed(page: Int)
    case upload
}

extension MediaAPI: MyServerType {
    var baseURL: URL { URL(string: "https://media.myserver.example")! }
    var headers: [String: String]? { ["x-flag": "iOS"] }

    var path: String {
        switch self {
        case .feed: return "feed"
        case .upload: return "uploads"
        }
    }

    var method: Moya.Method {
        switch self {
        case .feed: return .get
        case .upload: return .post
        }
    }

    var task: Moya.Task {
        switch self {
        case .feed(let page): return .requestParameters(parameters: ["page": page], encoding: URLEncoding.default)
        case .upload: return .requestParameters(parameters: ["kind": "photo"], encoding: URLEncoding.httpBody)
        }
    }

    var sampleData: Data { Data(#"{"items":[]}"#.utf8) }

    var sampleResponse: EndpointSampleResponse {
        switch self {
        case .feed: return .networkResponse(200, sampleData)
        case .upload: return .networkError(NSError(domain: NSURLErrorDomain, code: NSURLErrorNetworkConnectionLost))
        }
    }
}
