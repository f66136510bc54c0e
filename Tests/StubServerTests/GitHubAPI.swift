import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TargetModel

/// The demo API that `fixtures/` serves, written as a Moya target. `DemoFixturesTests` proves that
/// compiling this enum and loading `fixtures/` give equal route tables.
enum GitHubAPI: TargetType {
    case zen
    case user(login: String)
    case userRepos(login: String, sort: String, perPage: Int)
    case createIssue(owner: String, repo: String, issue: NewIssue)
    case searchRepositories(query: String, page: Int)
    case starRepo(owner: String, repo: String)
    case rateLimit
    case events

    /// Every case, in the order `fixtures/github.json` lists them.
    static let all: [GitHubAPI] = [
        .zen,
        .user(login: "octocat"),
        .userRepos(login: "octocat", sort: "updated", perPage: 2),
        .createIssue(owner: "octocat", repo: "hello-world",
                     issue: NewIssue(title: "Found a bug", body: "I'm having a problem with this.", labels: ["bug"])),
        .searchRepositories(query: "swift stub", page: 1),
        .starRepo(owner: "octocat", repo: "hello-world"),
        .rateLimit,
        .events,
    ]

    struct NewIssue: Encodable {
        let title: String
        let body: String
        let labels: [String]
    }

    var baseURL: URL { URL(string: "https://api.github.com")! }

    var path: String {
        switch self {
        case .zen: return "/zen"
        case .user(let login): return "/users/\(login)"
        case .userRepos(let login, _, _): return "/users/\(login)/repos"
        case .createIssue(let owner, let repo, _): return "/repos/\(owner)/\(repo)/issues"
        case .searchRepositories: return "/search/repositories"
        case .starRepo(let owner, let repo): return "/user/starred/\(owner)/\(repo)"
        case .rateLimit: return "/rate_limit"
        case .events: return "/events"
        }
    }

    var method: TargetModel.Method {
        switch self {
        case .createIssue: return .post
        case .starRepo: return .put
        default: return .get
        }
    }

    var task: Task {
        switch self {
        case .userRepos(_, let sort, let perPage):
            return .requestParameters(parameters: ["sort": sort, "per_page": perPage], encoding: URLEncoding.default)
        case .createIssue(_, _, let issue):
            return .requestJSONEncodable(issue)
        case .searchRepositories(let query, let page):
            return .requestParameters(parameters: ["q": query, "page": page], encoding: URLEncoding.queryString)
        default:
            return .requestPlain
        }
    }

    var headers: [String: String]? {
        switch self {
        case .createIssue, .starRepo: return ["Authorization": "token demo-token"]
        default: return nil
        }
    }

    var sampleData: Data {
        switch self {
        case .zen: return Data("Design for failure.".utf8)
        case .user: return Data(Self.userJSON.utf8)
        case .userRepos: return Data(Self.reposJSON.utf8)
        case .createIssue: return Data(Self.issueJSON.utf8)
        case .searchRepositories:
            return Data(#"{"total_count":1,"incomplete_results":false,"items":[{"full_name":"octocat/stubd-demo"}]}"#.utf8)
        case .rateLimit:
            return Data(#"{"message":"API rate limit exceeded","documentation_url":"https://docs.github.com/rest/rate-limit"}"#.utf8)
        case .starRepo, .events: return Data()
        }
    }

    var sampleResponse: EndpointSampleResponse {
        switch self {
        case .zen:
            return .response(response(200, ["Content-Type": "text/plain; charset=utf-8"]), sampleData)
        case .user:
            return .response(response(200, ["Content-Type": "application/json; charset=utf-8",
                                            "ETag": "\"6f1ed002ab5595859014ebf0951522d9\""]), sampleData)
        case .createIssue:
            return .response(response(201, ["Content-Type": "application/json; charset=utf-8",
                                            "Location": "https://api.github.com/repos/octocat/hello-world/issues/1347"]), sampleData)
        case .starRepo:
            return .networkResponse(204, sampleData)
        case .rateLimit:
            return .response(response(403, ["Content-Type": "application/json; charset=utf-8", "X-RateLimit-Remaining": "0"]), sampleData)
        case .events:
            return .networkError(NSError(domain: NSURLErrorDomain, code: NSURLErrorNetworkConnectionLost))
        default:
            return .networkResponse(200, sampleData)
        }
    }

    var stubBehavior: StubBehavior {
        switch self {
        case .searchRepositories: return .delayed(seconds: 0.8)
        default: return .immediate
        }
    }

    private func response(_ status: Int, _ headers: [String: String]) -> HTTPURLResponse {
        HTTPURLResponse(url: URL(target: self), statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
    }

    private static let userJSON = """
        {
          "login": "octocat",
          "id": 583231,
          "name": "The Octocat",
          "company": "@github",
          "blog": "https://github.blog",
          "location": "San Francisco",
          "public_repos": 8,
          "followers": 9001,
          "created_at": "2011-01-25T18:44:36Z"
        }

        """

    private static let reposJSON = """
        [
          {
            "id": 1296269,
            "name": "Hello-World",
            "full_name": "octocat/Hello-World",
            "private": false,
            "description": "My first repository on GitHub!",
            "stargazers_count": 2718,
            "updated_at": "2026-11-02T09:12:44Z"
          },
          {
            "id": 132935648,
            "name": "boysenberry-repo-1",
            "full_name": "octocat/boysenberry-repo-1",
            "private": false,
            "description": "Testing",
            "stargazers_count": 331,
            "updated_at": "2026-10-28T17:40:03Z"
          }
        ]

        """

    private static let issueJSON = """
        {
          "id": 1,
          "number": 1347,
          "state": "open",
          "title": "Found a bug",
          "body": "I'm having a problem with this.",
          "labels": [{"name": "bug", "color": "f29513"}],
          "user": {"login": "octocat"},
          "created_at": "2026-11-21T10:00:00Z"
        }

        """
}
