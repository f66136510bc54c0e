import StubModel

/// The one order in which routes that all match a request are preferred (first wins):
///
/// 1. lower `priority` (1 is highest; default 5);
/// 2. an exact path before a template, a template before a path pattern (regular expression;
///    these are tried only when no exact or template route of the method matches);
/// 3. between templates, the one with a literal segment where the other has a parameter, at the
///    first position where they differ (`/users/me` style before `/users/{login}`);
/// 4. more constraints: each required header, a body pattern, a host, each query parameter, and a
///    GraphQL operation name, persisted-query hash and each variable the route names count one (so with `anyOtherQuery`, `/items?page=2` wins
///    over `/items` for `?page=2&cb=9`, and a route for `Profile` with `{"id": 7}` over the imported
///    `Profile` route);
/// 5. declared first (files in path order, routes in file order).
package struct Precedence: Comparable, Sendable {
    package let priority: Int
    /// 0 exact path, 1 template, 2 regular expression.
    package let pathKind: UInt8
    /// One entry per path segment: 0 literal, 1 parameter (templates only).
    package let shape: [UInt8]
    package let specificity: Int
    let order: Int

    init(fixture: Fixture, order: Int) {
        priority = fixture.priority
        switch fixture.request.path {
        case .literal:
            pathKind = 0
            shape = []
        case .template(let template):
            pathKind = 1
            shape = template.segments.map { if case .parameter = $0 { return 1 } else { return 0 } }
        case .regex, .urlRegex:
            pathKind = 2
            shape = []
        }
        specificity = fixture.request.parts.count { Self.constraining.contains($0.kind) } + fixture.request.query.names.count
            + (fixture.request.graphQL.map { ($0.operationName == nil ? 0 : 1) + ($0.persistedQueryHash == nil ? 0 : 1) + $0.variables.count } ?? 0)
        self.order = order
    }

    /// The parts that make a route more specific than another on the same path: headers,
    /// cookies, a body and a server.
    private static let constraining: Set<RequestPart.Kind> = [.header, .headerMatch, .cookie, .body, .host]

    package static func < (lhs: Precedence, rhs: Precedence) -> Bool {
        if lhs.priority != rhs.priority { return lhs.priority < rhs.priority }
        if lhs.pathKind != rhs.pathKind { return lhs.pathKind < rhs.pathKind }
        if lhs.shape != rhs.shape { return lhs.shape.lexicographicallyPrecedes(rhs.shape) }
        if lhs.specificity != rhs.specificity { return lhs.specificity > rhs.specificity }
        return lhs.order < rhs.order
    }
}
