/// The HTTP method of a target, source-compatible with `Moya.Method` (Alamofire's `HTTPMethod`).
///
/// A struct rather than an enum because Moya lets any raw value through (custom verbs); the raw
/// value is exactly what goes on the request line.
public struct Method: RawRepresentable, Equatable, Hashable, Sendable {
    /// `CONNECT`: only used to open tunnels; kept for source compatibility.
    public static let connect = Method(rawValue: "CONNECT")
    /// `DELETE`: URL-encoded parameters go in the query by default.
    public static let delete = Method(rawValue: "DELETE")
    /// `GET`: URL-encoded parameters go in the query by default; a body is never sent.
    public static let get = Method(rawValue: "GET")
    /// `HEAD`: answered like GET without a body.
    public static let head = Method(rawValue: "HEAD")
    /// `OPTIONS`: parameters go in the body by default, as for every non GET/HEAD/DELETE verb.
    public static let options = Method(rawValue: "OPTIONS")
    /// `PATCH`.
    public static let patch = Method(rawValue: "PATCH")
    /// `POST`.
    public static let post = Method(rawValue: "POST")
    /// `PUT`.
    public static let put = Method(rawValue: "PUT")
    /// `QUERY` (Alamofire 5.6+); libevent 2.1 cannot receive it, so stubd reports it as unservable.
    public static let query = Method(rawValue: "QUERY")
    /// `TRACE`.
    public static let trace = Method(rawValue: "TRACE")

    /// The verb as written on the request line.
    public let rawValue: String

    /// Creates a method from its wire spelling; Moya does not validate it, neither do we.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Whether Moya allows multipart uploads with this method (POST, PUT, PATCH, CONNECT).
    public var supportsMultipart: Bool {
        switch self {
        case .post, .put, .patch, .connect: return true
        default: return false
        }
    }
}
