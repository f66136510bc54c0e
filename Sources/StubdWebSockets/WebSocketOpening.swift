import StubModel
package import StubdEngine
import StubdState
package import StubdTemplates
package import Recording
import StubdState

/// What a route answers a request for a WebSocket: the upgrade, when the route holds a WebSocket
/// and the handshake is valid; a 400 saying what is wrong otherwise — also when the route holds
/// none (a plain 200 to an upgrade leaves a browser with "Unexpected response code: 200").
package enum WebSocketOpening {
    /// The plan for a route hit that may be a WebSocket's: nil when neither the route nor the
    /// request is one (the route's usual answer goes).
    /// `compiled`: the step's WebSocket, nil when the step is not one.
    package static func plan(_ compiled: CompiledWebSocket?, context: OutcomeContext, registry: WebSocketRegistry, exchange: any ConversationSink,
                     redactor: Redactor, headOnly: Bool) -> ReplyPlan? {
        let request = context.request, route = context.route
        let asks = WebSocketHandshake.asksForWebSocket(request.headers)
        guard let compiled else {
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
        let player = WebSocketPlayer(compiled: compiled, context: context, registry: registry, exchange: exchange, redactor: redactor)
        let upgrade = WebSocketUpgrade(accept: WebSocketHandshake.accept(key: key),
                                       subprotocol: WebSocketHandshake.subprotocol(offered: request.headers, supported: script.subprotocols),
                                       messageLimit: script.messageLimit, peer: player)
        return ReplyPlan(content: .upgrade(upgrade))
    }
}
