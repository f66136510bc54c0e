import StubModel
import StubdEngine
import StubdState

/// What a route answers a request for a WebSocket: the upgrade, when the route holds a WebSocket
/// and the handshake is valid; a 400 saying what is wrong otherwise — also when the route holds
/// none (a plain 200 to an upgrade leaves a browser with "Unexpected response code: 200").
enum WebSocketOpening {
    /// The plan for a route hit that may be a WebSocket's: nil when neither the route nor the
    /// request is one (the route's usual answer goes).
    static func plan(route: Route, hit: Int, exchange: Exchange, admin: StubAdmin, redactor: Redactor, headOnly: Bool) -> ReplyPlan? {
        let request = exchange.request
        let asks = WebSocketHandshake.asksForWebSocket(request.headers)
        guard let compiled = route.webSocket(forHit: hit) else {
            guard asks else { return nil }
            let refusal = JSONReply.error("route \(route.name) answers plain HTTP: it has no WebSocket", status: 400,
                                          problems: ["add \"websocket\": {…} to the route (docs/WEBSOCKETS.md), or send the request without Upgrade: websocket"])
            return ReplyPlan(content: .response(refusal), headOnly: headOnly)
        }
        guard asks else {
            let refusal = JSONReply.error("route \(route.name) is a WebSocket: open it with Upgrade: websocket", status: 426,
                                          problems: ["connect with a WebSocket client (ws:// or wss://), not a plain request"])
            return ReplyPlan(content: .response(PreparedReply(status: 426, headers: refusal.headers + [NameValue("Upgrade", "websocket")], body: refusal.body)),
                            headOnly: headOnly)
        }
        if let problem = WebSocketHandshake.problem(method: request.method, headers: request.headers) {
            return ReplyPlan(content: .response(JSONReply.error("route \(route.name): not a valid WebSocket upgrade: \(problem)", status: 400)), headOnly: headOnly)
        }
        let key = request.header("Sec-WebSocket-Key") ?? ""
        let script = compiled.script
        let player = WebSocketPlayer(compiled: compiled, route: route, request: request, session: exchange.session, state: admin.templates,
                                     collections: admin, registry: admin.webSockets, exchange: exchange, redactor: redactor)
        let upgrade = WebSocketUpgrade(accept: WebSocketHandshake.accept(key: key),
                                       subprotocol: WebSocketHandshake.subprotocol(offered: request.headers, supported: script.subprotocols),
                                       messageLimit: script.messageLimit, peer: player)
        return ReplyPlan(content: .upgrade(upgrade))
    }
}
