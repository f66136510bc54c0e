import Foundation
import TargetModel

/// A target whose every property is set by the test, for request-building checks.
struct TestTarget: TargetType {
    var baseURL = URL(string: "https://api.example.com")!
    var path = "/items"
    var method: TargetModel.Method = .get
    var task: Task = .requestPlain
    var headers: [String: String]? = nil
    var sampleData = Data("ok".utf8)
}

extension TestTarget {
    /// The request Moya would build for this target.
    func request() throws -> URLRequestSummary {
        URLRequestSummary(try Endpoint(target: self).urlRequest())
    }
}
