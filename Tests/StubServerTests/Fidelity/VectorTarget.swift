import Foundation
import TargetModel

/// A target built from a vector's fields; it prints as the vector's name, which is also its
/// route name in stubd.
struct VectorTarget: TargetType, CustomStringConvertible {
    var name: String
    var baseURL: URL
    var path: String
    var method: TargetModel.Method
    var task: Task
    var headers: [String: String]?
    var sampleData: Data { Data("sample of \(name)".utf8) }
    var description: String { name }
}

/// What the body of the built request must be.
enum ExpectedBody {
    /// `httpBody == nil`.
    case none
    /// Exactly this UTF-8 text.
    case text(String)
    /// Exactly these bytes.
    case bytes([UInt8])
    /// JSON equal by meaning (key order is random per process on Linux).
    case json(String)
    /// Form pairs in any order (nested-dictionary order is random per process).
    case formAnyOrder([String])
}

/// What the URL must be.
enum ExpectedURL {
    /// Exactly this absolute string.
    case exact(String)
    /// This URL before `?`, and these raw `k=v` query components in any order.
    case anyOrder(String, [String])
}

/// One request-building rule, checked three ways: the request Moya builds (URL, headers, body),
/// an end-to-end round trip through stubd, and a one-value mutation that must miss.
struct RequestVector {
    let target: VectorTarget
    let url: ExpectedURL
    let headers: [String: String]
    let body: ExpectedBody
    /// Bytes a real client streams for an upload task (Moya's URLRequest has no body for them).
    var uploadBody: [UInt8]? = nil
    /// Multipart parts a real client sends (with a boundary of its own).
    var multipart: [MultipartPart]? = nil
    /// Real Alamofire clients never send this request (e.g. GET with a body).
    var unreachable = false

    var name: String { target.name }
}
