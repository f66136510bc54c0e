import StubModel
import StubdEngine
import StubdWebSockets

/// A miss that asks for a WebSocket, forwarded: the upgrade goes to the upstream (the client's
/// key, version, subprotocols and end-to-end headers; no extension offered, so the recorder can
/// read every frame), and the client gets what the upstream answers — the `101` and the relayed
/// conversation (`WebSocketRelay`), its refusal as it came, or a 502 naming the cause.
enum WebSocketForwarding {
    /// Whether `request` is a WebSocket upgrade the proxy relays (a malformed one is forwarded as
    /// plain HTTP, and the upstream says what is wrong).
    static func relays(_ request: IncomingRequest) -> Bool {
        WebSocketHandshake.asksForWebSocket(request.headers) && WebSocketHandshake.problem(method: request.method, headers: request.headers) == nil
    }

    static func forward(_ exchange: Exchange, to target: Forwarding.Target, via: String, redactor: Redactor, registry: WebSocketRegistry, reply: ReplyHandle) {
        let request = exchange.request, proxy = target.upstream
        var upstream = proxy.forward(request)
        upstream.headers.removeAll { $0.name.lowercased() == "sec-websocket-extensions" }
        upstream.headers.append(NameValue("Via", via))
        exchange.resolve(.forwarded(upstream: proxy.description))
        let key = request.header("Sec-WebSocket-Key") ?? ""
        reply.upstream.openWebSocket(upstream, messageLimit: WebSocketRelay.messageLimit) { answer in
            let plan: ReplyPlan
            switch answer {
            case .upgraded(let socket, let subprotocol):
                let relay = WebSocketRelay(upstream: socket, named: proxy.description, subprotocol: subprotocol, exchange: exchange,
                                           recorder: target.recorder, redactor: redactor, registry: registry)
                plan = ReplyPlan(content: .upgrade(WebSocketUpgrade(accept: WebSocketHandshake.accept(key: key), subprotocol: subprotocol,
                                                                    messageLimit: WebSocketRelay.messageLimit, peer: relay)))
            case .answered(let status, let headers, let body):
                plan = ReplyPlan(content: .response(proxy.reply(for: .answered(status: status, headers: headers, body: body))))
            case .failed(let cause):
                plan = ReplyPlan(content: .response(proxy.reply(for: .failed(cause))))
            }
            exchange.record(plan)
            reply.complete(plan, listener: exchange)
        }
    }
}
