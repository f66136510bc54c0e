import StubModel
import StubdEngine
import StubdState
import StubdWebSockets

/// A miss on its way to the upstream (`--proxy-unmatched`, a recording): whether it may go, and
/// sending it. Its answer — or a 502 naming the cause — goes back to the client from the loop that
/// received the request, which never waits for the upstream (a large body is relayed as it
/// arrives); a recording keeps the upstream's answer in the exchange for the recorder. A WebSocket
/// upgrade is forwarded as one (`WebSocketForwarding`).
struct MissForwarder {
    let cors: CORSPolicy
    let redactor: Redactor
    /// How stubd knows the requests it sent itself (a forwarded miss coming back is a loop).
    let own: OwnTraffic
    /// Where forwarded WebSocket conversations are listed (the admin API's `/__stubd/websockets`).
    let webSockets: WebSocketRegistry

    /// `.forward(target)` — unless a page stubd may not forward for sent it
    /// (`CORSPolicy.allowsForwarding`: 403, not sent upstream, not recorded, no CORS headers), or
    /// it is one this server forwarded that came back to it (508: the upstream is stubd itself).
    func decide(_ exchange: Exchange, to target: Forwarding.Target, headOnly: Bool) -> Decision {
        let request = exchange.request
        let client = exchange.client
        if !cors.allowsForwarding(client) {
            let from = client.origin.map { "a page at \($0)" } ?? "a page (Sec-Fetch-Site: \(client.fetchSite ?? "?"))"
            exchange.resolve(.notForwarded(reason: "\(from) not allowed"))
            let refusal = JSONReply.error("no stub matched, and \(from) may not use the upstream through stubd", status: 403,
                                           problems: ["allow this page with --cors-origin \(client.origin ?? "ORIGIN") (pages served from localhost are allowed)"])
            return .reply(ReplyPlan(content: .response(refusal), headOnly: headOnly))
        }
        if own.isOwnForward(request) {
            exchange.resolve(.notForwarded(reason: "a forwarding loop"))
            let refusal = JSONReply.error("this miss was forwarded by this stubd and came back to it: the upstream \(target.upstream) leads to stubd itself",
                                           status: 508, problems: ["give --proxy-unmatched (or the recording's upstream) the real server's URL"])
            return .reply(ReplyPlan(content: .response(refusal), headOnly: headOnly))
        }
        return .forward(target)
    }

    /// Sends the miss to `target` and completes `reply` with its answer.
    func forward(_ exchange: Exchange, to target: Forwarding.Target, reply: ReplyHandle) {
        if WebSocketForwarding.relays(exchange.request) {
            return WebSocketForwarding.forward(exchange, to: target, via: own.via, redactor: redactor, registry: webSockets, reply: reply)
        }
        let request = exchange.request, cors = self.cors, proxy = target.upstream
        var upstream = proxy.forward(request)
        upstream.headers.append(NameValue("Via", own.via))
        // A recorder must read what it stores: ask only for codings it can undo.
        if target.recorder != nil { upstream.headers = ProxyUpstream.decodableAcceptEncoding(upstream.headers) }
        upstream.relay = UpstreamRelay(above: ProxyUpstream.relayAbove, keepLimit: target.recorder?.options.maxBodyBytes ?? 0) { status, headers in
            let head = PreparedReply(status: status, headers: ProxyUpstream.clientHeaders(headers), body: [])
            return head.headers + (cors.enabled ? cors.headers(for: request, exposing: head) : [])
        }
        exchange.resolve(.forwarded(upstream: proxy.description))
        reply.upstream.fetch(upstream) { response in
            let prepared = proxy.reply(for: response, head: request.method == "HEAD")
            var plan = ReplyPlan(content: .response(prepared), headOnly: request.method == "HEAD")
            if case .relayed = response { plan.alreadySent = true }
            if cors.enabled { plan.extraHeaders = cors.headers(for: request, exposing: prepared) }
            exchange.record(plan)
            if let recorder = target.recorder { exchange.recorded(by: recorder, upstream: response) }
            reply.complete(plan, listener: exchange)
        }
    }
}
