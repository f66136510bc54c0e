import StubModel
import StubdEngine

/// One admin endpoint: a method, a path under `/__stubd/` (`{name}` matches one segment), and the
/// small handler that answers it. The router is a list of these; the 404's list of endpoints and
/// the README check are made from the same list, so neither can drift from what is served.
struct AdminEndpoint: Sendable, CustomStringConvertible {
    /// One path segment: a fixed word, or a `{name}` taking any one segment.
    enum Segment: Sendable, Equatable {
        case word(String)
        case parameter(String)
    }

    /// What a handler is given: the facade, the request, its session, the values of the path's
    /// parameters in order, and the decoded query.
    struct Call {
        let admin: StubAdmin
        let request: IncomingRequest
        let session: SessionID?
        let parameters: [String]
        let query: [NameValue]
    }

    /// How the endpoint answers: at once, on the loop (a quick read or change of state), or later,
    /// from another thread (work that waits — a disk flush — must not hold a serving loop).
    enum Handler: Sendable {
        case now(@Sendable (Call) -> PreparedReply)
        case later(@Sendable (Call, _ answer: @escaping @Sendable (PreparedReply) -> Void) -> Void)
        /// A head now and a body written later, from any thread (`ReplyStream`): event streams.
        case stream(@Sendable (Call) -> ReplyStream)
    }

    let method: String
    let segments: [Segment]
    let handler: Handler

    /// An endpoint answered at once; `path` is spelled as the README and the 404 spell it
    /// (`routes/{id}`).
    init(_ method: String, _ path: String, _ handle: @escaping @Sendable (Call) -> PreparedReply) {
        self.init(method, path, handler: .now(handle))
    }

    /// An endpoint that answers when `handle` calls its `answer`, from any thread.
    init(_ method: String, _ path: String, later handle: @escaping @Sendable (Call, _ answer: @escaping @Sendable (PreparedReply) -> Void) -> Void) {
        self.init(method, path, handler: .later(handle))
    }

    /// An endpoint answering with a stream.
    init(_ method: String, _ path: String, stream open: @escaping @Sendable (Call) -> ReplyStream) {
        self.init(method, path, handler: .stream(open))
    }

    private init(_ method: String, _ path: String, handler: Handler) {
        self.method = method
        self.segments = path.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .word(String(part))
        }
        self.handler = handler
    }

    var description: String {
        "\(method) \(AdminRouter.prefix)/" + segments.map { segment in
            switch segment {
            case .word(let word): return word
            case .parameter(let name): return "{\(name)}"
            }
        }.joined(separator: "/")
    }

    /// The parameters' values when `method` and the segments after `/__stubd/` fit; nil otherwise.
    func match(method: String, path: [String]) -> [String]? {
        guard method == self.method, path.count == segments.count else { return nil }
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
}
