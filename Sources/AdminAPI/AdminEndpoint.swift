public import AdminContract
public import StubModel
public import StubServer
public import StubdEngine
import StubdState

/// One admin endpoint the router serves: a call declared in `AdminContract` and its handler. A
/// typed handler is given the call's `Request` (read from the body before it runs: a body that
/// does not read is a 400 naming the field) and returns its `Response`, written as JSON; others
/// answer raw (the dashboard's page and script, Prometheus text), later, or as a stream.
public struct AdminEndpoint: Sendable, CustomStringConvertible {
    /// What a handler is given: the server's state, the request, its session, the values of the
    /// path's parameters in order, and the decoded query.
    public struct Call: Sendable {
        /// The session store the handler reads and changes.
        public let state: SessionStore
        /// The request as received.
        public let request: IncomingRequest
        /// Who sent it (`ClientProfile`).
        public let client: ClientProfile
        /// The caller's `X-Stubd-Session` (nil: every session, or the shared one).
        public let session: SessionID?
        /// The values of the endpoint's `{name}` path segments, in order.
        public let parameters: [String]
        /// The query's pairs, decoded.
        public let query: [NameValue]
    }

    /// How the endpoint answers: at once, on the loop (a quick read or change of state), later,
    /// from another thread (work that waits — a disk flush, a large batch of routes — must not
    /// hold a serving loop), or with a stream.
    enum Handler: Sendable {
        case now(@Sendable (Call) -> PreparedReply)
        case later(@Sendable (Call, _ answer: @escaping @Sendable (PreparedReply) -> Void) -> Void)
        case stream(@Sendable (Call) -> ReplyStream)
    }

    /// One path segment: a fixed word, or a `{name}` taking any one segment.
    enum Segment: Sendable, Equatable {
        case word(String)
        case parameter(String)
    }

    /// The declaration it serves.
    public let spec: AdminEndpointSpec
    let segments: [Segment]
    let handler: Handler
    /// Served to a browser's navigation without the page key (the dashboard's page and assets).
    let isPage: Bool
    /// Answered to anyone, token or not (`ready`: what probes ask, telling nothing else).
    let isOpen: Bool

    private init(_ spec: AdminEndpointSpec, isOpen: Bool = false, handler: Handler, isPage: Bool = false) {
        self.spec = spec
        self.segments = spec.path.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .word(String(part))
        }
        self.handler = handler
        self.isPage = isPage
        self.isOpen = isOpen
    }

    /// A typed endpoint answered at once: `handle` gets the request's body as `Request` and
    /// returns `Response` (written as JSON with the call's status), or throws a refusal.
    /// `open`: answered to anyone, without the access checks (only for calls that tell nothing).
    public init<Request, Response>(_ call: AdminCall<Request, Response>, open: Bool = false,
                                   _ handle: @escaping @Sendable (Call, Request) throws(AdminRefusal) -> Response) {
        let status = call.spec.status
        self.init(call.spec, isOpen: open, handler: .now { call in
            do throws(AdminRefusal) {
                let response = try handle(call, try Self.read(Request.self, from: call.request.body))
                return JSONReply.json(response.json, status: status)
            } catch {
                return error.reply
            }
        })
    }

    /// A typed endpoint answered later, from any thread (`answer` exactly once).
    public init<Request, Response>(_ call: AdminCall<Request, Response>,
                                   later handle: @escaping @Sendable (Call, Request, _ answer: @escaping @Sendable (Result<Response, AdminRefusal>) -> Void) -> Void) {
        let status = call.spec.status
        self.init(call.spec, handler: .later { call, answer in
            do throws(AdminRefusal) {
                let request = try Self.read(Request.self, from: call.request.body)
                handle(call, request) { result in
                    switch result {
                    case .success(let response): answer(JSONReply.json(response.json, status: status))
                    case .failure(let refusal): answer(refusal.reply)
                    }
                }
            } catch {
                answer(error.reply)
            }
        })
    }

    /// An endpoint answering with a reply of its own making (not JSON); `page`: a dashboard asset.
    public init<Request, Response>(_ call: AdminCall<Request, Response>, page: Bool = false, reply handle: @escaping @Sendable (Call) -> PreparedReply) {
        self.init(call.spec, handler: .now(handle), isPage: page)
    }

    /// An endpoint answering with a stream (Server-Sent Events).
    public init<Request, Response>(_ call: AdminCall<Request, Response>, stream open: @escaping @Sendable (Call) -> ReplyStream) {
        self.init(call.spec, handler: .stream(open))
    }

    /// `GET /__stubd/health`.
    public var description: String { spec.description }

    /// The parameters' values when `method` and the segments after `/__stubd/` fit; nil otherwise.
    func match(method: String, path: [String]) -> [String]? {
        guard method == spec.method, path.count == segments.count else { return nil }
        var parameters: [String] = []
        for (segment, part) in zip(segments, path) {
            switch segment {
            case .word(let word): if word != part { return nil }
            case .parameter: parameters.append(part)
            }
        }
        return parameters
    }

    /// Fixed words first, so `POST /__stubd/scenarios/reset` is never read as a scenario named
    /// "reset".
    var specificity: Int { segments.filter { if case .word = $0 { true } else { false } }.count }

    /// Reads a body: nothing for `NoBody` when none was sent, else JSON read as `Body`.
    static func read<Body: AdminBody>(_ type: Body.Type, from bytes: [UInt8]) throws(AdminRefusal) -> Body {
        if bytes.isEmpty, let none = NoBody() as? Body { return none }
        guard let json = try? JSONParser.parse(bytes) else {
            throw AdminRefusal("the body is not JSON", problems: ["send a JSON body with Content-Type: application/json"])
        }
        do {
            return try Body(json: json)
        } catch {
            throw AdminRefusal(error)
        }
    }
}
