import AdminContract
import StubModel
import StubServer
import StubdEngine
import StubdState

/// The admin API under `/__stubd/`: a table from method + path to one handler per endpoint, each
/// registered against its declaration in `AdminContract` — the standard endpoints (`standard`)
/// and whatever a module adds (the dashboard's). Handlers only talk to the server's state
/// (`SessionStore`), never to the engine.
struct AdminRouter: Sendable {
    let state: SessionStore
    /// Most specific first (`AdminEndpoint.specificity`).
    let endpoints: [AdminEndpoint]

    init(state: SessionStore, endpoints: [AdminEndpoint]) {
        self.state = state
        self.endpoints = endpoints.sorted { $0.specificity > $1.specificity }
    }

    /// What an admin call gets: a reply now, a stream, or a reply later.
    enum Reply {
        case now(PreparedReply)
        case later(@Sendable (_ answer: @escaping @Sendable (PreparedReply) -> Void) -> Void)
        case stream(ReplyStream)
    }

    /// The endpoint `request` is for, and its parameters.
    func endpoint(for request: IncomingRequest) -> (endpoint: AdminEndpoint, parameters: [String])? {
        let path = Array(PathSegments(raw: request.rawPath).segments.dropFirst())
        for endpoint in endpoints {
            if let parameters = endpoint.match(method: request.method, path: path) { return (endpoint, parameters) }
        }
        return nil
    }

    /// `client`: the request's profile (made here when not given).
    func handle(_ request: IncomingRequest, session: SessionID?, client: ClientProfile? = nil) -> Reply {
        guard let (endpoint, parameters) = endpoint(for: request) else {
            return .now(JSONReply.error("no admin endpoint \(request.method) \(PathSegments(raw: request.rawPath))", status: 404,
                                        problems: endpoints.map(\.description)))
        }
        let call = AdminEndpoint.Call(state: state, request: request, client: client ?? ClientProfile(request), session: session, parameters: parameters,
                                      query: FormCoding.decodePairs(request.rawQuery ?? ""))
        switch endpoint.handler {
        case .now(let handle): return .now(handle(call))
        case .later(let handle): return .later { answer in handle(call, answer) }
        case .stream(let open): return .stream(open(call))
        }
    }
}
