/// Which journal entries a query selects — the admin API's `?method=&path=&route=&matched=`.
/// The kit's own type, so that a test target needs nothing of the server library.
public struct RequestFilter: Sendable, Equatable {
    /// Exact method.
    public var method: String?
    /// Decoded path; a trailing `*` matches by prefix.
    public var path: String?
    /// Matched route name or id.
    public var route: String?
    /// Only matched (true) or only missed (false) requests.
    public var matched: Bool?

    /// A filter; nil fields select everything.
    public init(method: String? = nil, path: String? = nil, route: String? = nil, matched: Bool? = nil) {
        self.method = method
        self.path = path
        self.route = route
        self.matched = matched
    }

    /// The query parameters, in the admin API's order.
    var items: [(name: String, value: String)] {
        [("method", method), ("path", path), ("route", route), ("matched", matched.map { "\($0)" })]
            .compactMap { name, value in value.map { (name, $0) } }
    }
}
