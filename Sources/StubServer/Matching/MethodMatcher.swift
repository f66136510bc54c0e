/// The request method must be exactly this (`GET`); HEAD falls back to GET routes in lookup.
struct MethodMatcher: RequestPartMatcher {
    let method: String

    func matches(_ request: RequestView) -> Bool { request.request.method == method }

    /// A wrong method weighs as much as two characters of path: a route on the right path with
    /// another method is usually the one the client meant.
    func distance(_ request: RequestView) -> Int { matches(request) ? 0 : 8 }

    func explain(_ request: RequestView) -> [String] {
        matches(request) ? [] : ["method: expected \(method), got \(request.request.method)"]
    }
}
