/// One requirement of a `RequestPattern` beyond its method and path. Each case compiles to one
/// matcher in the serving core and is one field of a fixture's `request` (`FixtureField`).
public enum RequestPart: Sendable, Hashable {
    /// The path byte for byte as sent (`"pathExact": true`, WireMock's `url`).
    case pathExact(String)
    /// The server the route stands for (`"host"`), lower case, no port.
    case host(String)
    /// The query rule (`"query"`, `"anyOtherQuery"`).
    case query(QueryPattern)
    /// A header that must carry exactly this value (name lower-cased); `Content-Type` compares as
    /// a media type.
    case header(NameValue)
    /// A header compared by a `ValueMatch` (`{"contains": …}`, `{"absent": true}`).
    case headerMatch(NamedMatch)
    /// A cookie from the `Cookie` header, compared by a `ValueMatch`.
    case cookie(NamedMatch)
    /// The GraphQL operation and variables (`"graphql"`).
    case graphQL(GraphQLPattern)
    /// The body rule (`"body"`).
    case body(BodyRule)

    /// The kinds, in the order reports list them and patterns keep them.
    public enum Kind: Int, Sendable, Comparable, CaseIterable {
        case pathExact, host, query, header, headerMatch, cookie, graphQL, body

        /// Whether a pattern holds at most one part of this kind.
        public var isSingle: Bool {
            switch self {
            case .header, .headerMatch, .cookie: false
            case .pathExact, .host, .query, .graphQL, .body: true
            }
        }

        /// Whether parts of this kind are kept sorted by name (exact headers: the order a
        /// request sends them in does not matter, and equal patterns must compare equal).
        var isSorted: Bool { self == .header }

        /// Report order: the kind listed first in a near-miss report is the smaller.
        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// This part's kind.
    public var kind: Kind {
        switch self {
        case .pathExact: .pathExact
        case .host: .host
        case .query: .query
        case .header: .header
        case .headerMatch: .headerMatch
        case .cookie: .cookie
        case .graphQL: .graphQL
        case .body: .body
        }
    }

    /// The order within a sorted kind.
    var sortKey: NameValue {
        if case .header(let header) = self { return header }
        return NameValue("", "")
    }
}

/// How the query compares: exact pairs (a multiset), names present with any value, value
/// matchers, and whether other pairs may come too.
public struct QueryPattern: Sendable, Hashable {
    /// Required pairs, decoded and sorted; the request must carry exactly these (see
    /// `othersAllowed`).
    public var pairs: [NameValue]
    /// Names that must be present with any value (shape matching, redacted recordings).
    public var present: [String]
    /// Parameters compared by a `ValueMatch`, set aside before `pairs` is compared.
    public var matches: [NamedMatch]
    /// Whether the request may carry parameters the rule does not name (WireMock's rule); by
    /// default the pairs must be exactly `pairs`.
    public var othersAllowed: Bool

    /// A rule; pairs and present names are sorted.
    public init(pairs: [NameValue] = [], present: [String] = [], matches: [NamedMatch] = [], othersAllowed: Bool = false) {
        self.pairs = pairs.sorted()
        self.present = present.sorted()
        self.matches = matches
        self.othersAllowed = othersAllowed
    }

    /// Every parameter name the rule mentions.
    public var names: [String] { pairs.map(\.name) + present + matches.map(\.name) }
}

/// How the body compares: the pattern and the options that refine it.
public struct BodyRule: Sendable, Hashable {
    /// What the body must be.
    public var match: BodyPattern
    /// JSON member or form field names (sorted) whose values may be anything, at any depth: a
    /// recorded request whose secret values were redacted (`"anyValueFor"`).
    public var anyValueFor: [String]
    /// How `match` compares when it is `.json`.
    public var jsonOptions: JSONMatchOptions

    /// A rule.
    public init(_ match: BodyPattern, anyValueFor: [String] = [], jsonOptions: JSONMatchOptions = JSONMatchOptions()) {
        self.match = match
        self.anyValueFor = anyValueFor
        self.jsonOptions = jsonOptions
    }
}
