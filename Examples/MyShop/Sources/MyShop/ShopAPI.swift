import Foundation
import Moya

/// The shop's API, as a Moya app declares it.
public enum ShopAPI: TargetType {
    case products(page: Int)
    case product(id: Int)

    public var baseURL: URL { URL(string: "https://shop.example.com/v1")! }
    public var path: String {
        switch self {
        case .products: return "products"
        case .product(let id): return "products/\(id)"
        }
    }
    public var method: Moya.Method { .get }
    public var task: Moya.Task {
        switch self {
        case .products(let page): return .requestParameters(parameters: ["page": page], encoding: URLEncoding.queryString)
        case .product: return .requestPlain
        }
    }
    public var headers: [String: String]? { ["Accept": "application/json"] }
    public var sampleData: Data {
        switch self {
        case .products: return Data(#"[{"id":7,"name":"milk"}]"#.utf8)
        case .product: return Data(#"{"id":7,"name":"milk"}"#.utf8)
        }
    }
}
