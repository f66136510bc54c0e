/// One stub as data: what request it answers, what it answers, and when.
///
/// This is the common form of a Swift target and a fixture file entry; the route table is
/// compiled from a list of these, whatever their origin. Equality ignores `name` and `source`
/// (provenance), so a table built from targets equals one loaded from exported files.
public struct Fixture: Sendable, CustomStringConvertible {
    /// A human name: the target's case (`userProfile(login: "octocat")`) or the fixture's `name`.
    public var name: String
    /// Where it came from: `fixtures/github.json routes[3]` or `swift GitHubAPI.zen`.
    public var source: String
    /// Which requests this stub answers.
    public var request: RequestPattern
    /// What it answers, in order: one outcome for an ordinary stub, several for a sequence
    /// ("first call fails, second succeeds"). Never empty.
    public var outcomes: [StubOutcome]
    /// What happens after the last outcome of a sequence.
    public var afterLast: SequenceEnd
    /// The scenario step this stub takes part in, if any.
    public var scenario: ScenarioStep?
    /// Sends the body in chunks spread over time (a slow network), if set.
    public var dribble: Dribble?
    /// Seconds to wait before answering; nil answers at once (Moya's `.immediate`).
    public var delay: Double?
    /// 1 is the highest; routes without one have `defaultPriority`. Decides first between routes
    /// that all match a request (see the README's precedence rules).
    public var priority: Int

    /// The priority of a route that names none (WireMock's convention: 1 highest, 5 default).
    public static let defaultPriority = 5

    /// Creates a fixture with one outcome.
    public init(name: String, source: String, request: RequestPattern, outcome: StubOutcome, delay: Double? = nil,
                priority: Int = Fixture.defaultPriority, scenario: ScenarioStep? = nil) {
        self.init(name: name, source: source, request: request, outcomes: [outcome], delay: delay, priority: priority, scenario: scenario)
    }

    /// Creates a fixture answering with `outcomes` in turn.
    public init(name: String, source: String, request: RequestPattern, outcomes: [StubOutcome], afterLast: SequenceEnd = .repeatLast,
                delay: Double? = nil, priority: Int = Fixture.defaultPriority, scenario: ScenarioStep? = nil) {
        precondition(!outcomes.isEmpty, "a fixture needs at least one outcome")
        self.name = name
        self.source = source
        self.request = request
        self.outcomes = outcomes
        self.afterLast = afterLast
        self.delay = delay
        self.priority = priority
        self.scenario = scenario
    }

    /// The first (for most stubs, the only) outcome.
    public var outcome: StubOutcome { outcomes[0] }

    /// `name (source)`, the way errors and listings name a route.
    public var description: String { "\(name) (\(source))" }
}

extension Fixture: Equatable {
    /// Same request, answer and timing; provenance is ignored.
    public static func == (lhs: Fixture, rhs: Fixture) -> Bool {
        lhs.request == rhs.request && lhs.outcomes == rhs.outcomes && lhs.delay == rhs.delay && lhs.priority == rhs.priority
            && lhs.scenario == rhs.scenario && (lhs.outcomes.count == 1 || lhs.afterLast == rhs.afterLast)
            && lhs.dribble == rhs.dribble
    }
}

/// One name/value pair, percent-decoded: a query parameter, a form field or a header.
public struct NameValue: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The decoded name.
    public var name: String
    /// The decoded value.
    public var value: String

    /// Creates a pair.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    public static func < (lhs: NameValue, rhs: NameValue) -> Bool {
        (lhs.name, lhs.value) < (rhs.name, rhs.value)
    }

    /// `name=value`.
    public var description: String { "\(name)=\(value)" }
}

/// What a request must look like to get this stub.
///
/// Paths are compared segment by segment after decoding (`PathPattern`); query and form pairs
/// are held decoded as a multiset (sorted),
/// because Alamofire's nested-dictionary order is random per process. Header names are
/// lower-cased; only the headers listed here are checked.
public struct RequestPattern: Sendable, Hashable {
    /// The method, exactly as on the request line (`GET`).
    public var method: String
    /// The path, exact or a template.
    public var path: PathPattern
    /// Required query pairs, decoded and sorted; the request must carry exactly these.
    public var query: [NameValue]
    /// Required headers, names lower-cased, sorted; other request headers are ignored.
    public var headers: [NameValue]
    /// What the body must be.
    public var body: BodyPattern

    /// Creates a pattern for an exact path given in wire form (`/users/John%20Doe`).
    public init(method: String, path: String, query: [NameValue] = [], headers: [NameValue] = [], body: BodyPattern = .any) {
        self.init(method: method, path: .literal(PathSegments(raw: path)), query: query, headers: headers, body: body)
    }

    /// Creates a pattern, normalising query and header order and header-name case.
    public init(method: String, path: PathPattern, query: [NameValue] = [], headers: [NameValue] = [], body: BodyPattern = .any) {
        self.method = method
        self.path = path
        self.query = query.sorted()
        self.headers = headers.map { NameValue($0.name.lowercased(), $0.value) }.sorted()
        self.body = body
    }
}

/// How a request body is compared.
public enum BodyPattern: Sendable, Hashable {
    /// Not checked (the target sends no body, or an upload whose bytes stubd does not compare).
    case any
    /// Parsed as JSON and compared by meaning (key order and `1` vs `1.0` do not matter).
    case json(JSONValue)
    /// Parsed as `application/x-www-form-urlencoded` and compared as a multiset of decoded pairs.
    case form([NameValue])
    /// Compared byte for byte.
    case bytes([UInt8])
    /// A multipart/form-data body with any boundary, compared part by part (name, file name,
    /// Content-Type, bytes) in order.
    case multipart([MultipartPart])
}

/// What a stub answers with.
public enum StubOutcome: Sendable, Equatable {
    /// An HTTP response.
    case response(StubHTTPResponse)
    /// Moya's `.networkError(NSError)`: answered with the wire fault the README's table gives for
    /// this error (`Fault.forNetworkError(domain:code:)`).
    case networkError(domain: String, code: Int)
    /// A wire fault named directly.
    case fault(Fault)

    /// The fault the server produces, if the outcome is not an HTTP response.
    public var fault: Fault? {
        switch self {
        case .response: return nil
        case .networkError(let domain, let code): return Fault.forNetworkError(domain: domain, code: code)
        case .fault(let fault): return fault
        }
    }
}

/// A status, headers and body.
///
/// Equality treats headers as HTTP does: names case-insensitively, order across names ignored
/// (Foundation's `HTTPURLResponse` re-cases `ETag` as `Etag` and forgets the order).
public struct StubHTTPResponse: Sendable, Equatable {
    /// The status code (100–599).
    public var status: Int
    /// Headers to send, in order. Empty for Moya's `.networkResponse`, which has none.
    public var headers: [NameValue]
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [NameValue] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func == (lhs: StubHTTPResponse, rhs: StubHTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && canonical(lhs.headers) == canonical(rhs.headers)
    }

    private static func canonical(_ headers: [NameValue]) -> [NameValue] {
        headers.map { NameValue($0.name.lowercased(), $0.value) }.sorted()
    }
}

/// What a response sequence does once its last outcome has been served.
public enum SequenceEnd: String, Sendable, Equatable {
    /// Keep answering with the last outcome.
    case repeatLast
    /// Start again from the first.
    case cycle
}

/// A step of a named scenario (a state machine shared by several stubs): the stub matches only
/// while the scenario is in `requiredState` (any state when nil) and, once served, moves it to
/// `newState` (unchanged when nil). Every scenario starts in `ScenarioStep.started`.
public struct ScenarioStep: Sendable, Hashable {
    /// The state every scenario starts in (and returns to on reset), as in WireMock.
    public static let started = "Started"

    /// The scenario's name.
    public var name: String
    /// The state the scenario must be in for this stub to match.
    public var requiredState: String?
    /// The state the scenario moves to after this stub answers.
    public var newState: String?

    /// Creates a step.
    public init(name: String, requiredState: String? = nil, newState: String? = nil) {
        self.name = name
        self.requiredState = requiredState
        self.newState = newState
    }
}

/// A body sent in `chunks` equal pieces, one every `seconds / chunks`, the last at `seconds`
/// (WireMock's `chunkedDribbleDelay`): headers go out at once, the body trickles.
public struct Dribble: Sendable, Hashable {
    /// How many pieces the body is cut into (at most one per byte).
    public var chunks: Int
    /// Time from the headers to the last piece.
    public var seconds: Double

    /// Creates a dribble.
    public init(chunks: Int, seconds: Double) {
        self.chunks = chunks
        self.seconds = seconds
    }
}
