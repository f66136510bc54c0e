import AdminContract
package import Recording
import StubModel
package import StubServer
package import StubdEngine
import StubdState
import StubdSystem

/// What stubd does, as a forward proxy, with a host no route names (`serve --proxy-unrouted`).
public enum UnroutedHosts: String, Sendable, CaseIterable {
    /// The request fails at once (a `CONNECT` gets `403`, a plain request `502`), journaled as a
    /// miss naming the host, so an offline UI test sees every call it did not stub — and a strict
    /// session fails on it. The default: a test must not reach the network by accident.
    case refuse
    /// Passed on untouched: a `CONNECT` is tunnelled to the real server (no interception, so a
    /// pinned SDK keeps working), a plain request forwarded to it.
    case pass
    /// Intercepted and forwarded to the real server, and each answer recorded (`--record DIR`)
    /// as a route with its host, secrets scrubbed: serve the folder next time and the host is
    /// answered offline.
    case record
}

/// Where the forward proxy sends what it passes on or records: name overrides (curl's
/// `--resolve HOST:PORT:ADDRESS`), how HTTPS servers are trusted, and the recorder.
package struct ProxyPassage: Sendable {
    /// `host:port` → the address to connect to instead of resolving `host`.
    package var resolve: [String: String] = [:]
    /// How HTTPS servers are trusted (default: the system's store).
    package var tls = UpstreamTLS()
    /// The recorder of `UnroutedHosts.record`.
    package var recorder: Recorder?

    package init(resolve: [String: String] = [:], tls: UpstreamTLS = UpstreamTLS(), recorder: Recorder? = nil) {
        self.resolve = resolve
        self.tls = tls
        self.recorder = recorder
    }

    /// The address to connect to for `host:port`, if overridden.
    func address(_ host: String, _ port: Int) -> String? { resolve["\(host):\(port)"] }
}

/// The front of stubd's forward proxy (`serve --proxy-port`), before the stub handler: a request
/// that came through the proxy (`IncomingRequest.proxied`) is answered by the stubs when its host
/// has routes, and by the unrouted-host policy otherwise. A `CONNECT` to a routed host opens an
/// intercepted tunnel; the requests in it come back here with the tunnel's host and session.
/// The proxy credentials' user is the session (as `X-Stubd-Session` on the direct port), the
/// host is matched as `X-Stubd-Host` is; the admin API is never reached through the proxy.
package final class ProxyGate: EngineHandler {
    private let stubs: StubHandler
    private let admin: SessionStore
    private let feed: ExchangeFeed
    private let unrouted: UnroutedHosts
    private let own: OwnTraffic
    private let passage: ProxyPassage

    package init(stubs: StubHandler, admin: SessionStore, feed: ExchangeFeed, unrouted: UnroutedHosts, own: OwnTraffic,
                 passage: ProxyPassage = ProxyPassage()) {
        self.own = own
        self.passage = passage
        self.stubs = stubs
        self.admin = admin
        self.feed = feed
        self.unrouted = unrouted
    }

    package func handle(_ request: IncomingRequest, reply: ReplyHandle) -> HandlerDecision {
        guard let arrival = request.proxied else { return stubs.handle(request, reply: reply) }
        let routed = admin.store.snapshot.hosts.contains(arrival.host)
        if arrival.isConnect {
            if routed { return .reply(ReplyPlan(content: .tunnel(.intercept(arrival)))) }
            switch unrouted {
            case .refuse:
                // Intercepted, then each request refused with 502 and the fix — inside TLS, where a
                // browser shows it (a refused CONNECT shows only ERR_TUNNEL_CONNECTION_FAILED). The
                // CONNECT is a miss in the journal too: a client that does not trust stubd's CA
                // sends nothing in the tunnel, and its strict session must still fail.
                let why = "\(arrival.host) has no routes, and stubd's proxy refuses unrouted hosts"
                return answer(request, arrival, .tunnel(.intercept(arrival)), .miss(closest: "proxy: \(why) (answered 502 inside the tunnel)"))
            case .pass, .record:
                // Where the tunnel leads is decided by the address it reaches, before the 200.
                let exchange = started(request, arrival, reply: reply)
                let unrouted = self.unrouted
                passage.destination(arrival.host, arrival.port, own: own, reply: reply) { [self] chosen in
                    switch chosen {
                    case .failure(let refusal):
                        // A refused tunnel ends its connection, as a failed CONNECT does.
                        finish(exchange, .response(refusal.reply), .notForwarded(reason: refusal.message), reply: reply,
                               extraHeaders: [NameValue("Connection", "close")])
                    case .success(let address) where unrouted == .pass:
                        finish(exchange, .tunnel(.pass(host: address.description, port: arrival.port)),
                               .forwarded(upstream: "\(arrival.host):\(arrival.port) (tunnelled, not intercepted)"), reply: reply)
                    case .success:
                        // Intercepted like a routed host: its requests are forwarded (each checked again) and recorded.
                        finish(exchange, .tunnel(.intercept(arrival)), .forwarded(upstream: "\(arrival.host):\(arrival.port) (intercepted, recorded)"),
                               reply: reply)
                    }
                }
                return .later
            }
        }
        if AdminContract.isAdmin(request.rawPath) {
            return answer(request, arrival, .response(JSONReply.error("stubd's admin API is not reachable through its proxy", status: 403,
                                                                      problems: ["call it on stubd's own port"])), .admin)
        }
        guard routed else {
            switch unrouted {
            case .refuse: return refuse(request, arrival, status: 502)
            case .pass: return pass(request, arrival, reply: reply, recorder: nil)
            case .record: return pass(request, arrival, reply: reply, recorder: passage.recorder)
            }
        }
        // As the client sent it: its host and session are the arrival's (`Arrival`), read from `proxied`.
        return stubs.handle(request, reply: reply)
    }

    /// `content` as the answer, journaled with `resolution`.
    private func answer(_ request: IncomingRequest, _ arrival: ProxyArrival, _ content: ReplyContent, _ resolution: Exchange.Resolution) -> HandlerDecision {
        let exchange = started(request, arrival, reply: nil)
        exchange.resolve(resolution)
        let plan = ReplyPlan(content: content, headOnly: request.method == "HEAD")
        exchange.record(plan)
        return .reply(plan, listener: exchange)
    }

    /// The exchange of a proxied request, its observers told.
    private func started(_ request: IncomingRequest, _ arrival: ProxyArrival, reply: ReplyHandle?) -> Exchange {
        let exchange = Exchange(request: request, feed: feed, reply: reply)
        feed.start(exchange)
        return exchange
    }

    /// Completes a request answered later with `content`, journaled with `resolution`.
    private func finish(_ exchange: Exchange, _ content: ReplyContent, _ resolution: Exchange.Resolution, reply: ReplyHandle,
                        extraHeaders: [NameValue] = []) {
        exchange.resolve(resolution)
        var plan = ReplyPlan(content: content, headOnly: exchange.request.method == "HEAD")
        plan.extraHeaders = extraHeaders
        exchange.record(plan)
        reply.complete(plan, listener: exchange)
    }

    /// The refusal of an unrouted host: a miss naming it, and what to do.
    private func refuse(_ request: IncomingRequest, _ arrival: ProxyArrival, status: Int) -> HandlerDecision {
        let why = "\(arrival.host) has no routes, and stubd's proxy refuses unrouted hosts"
        let text = "stubd proxy: \(why). Add a route whose base URL is \(arrival.scheme)://\(arrival.host), "
            + "or start stubd with --proxy-unrouted pass to let this host through.\n"
        let refusal = PreparedReply(status: status, headers: [NameValue("Content-Type", "text/plain; charset=utf-8"), NameValue("Connection", "close")],
                                    body: Array(text.utf8))
        return answer(request, arrival, .response(refusal), .miss(closest: "proxy: \(why)"))
    }

    /// A request to an unrouted host (plain, or from an intercepted tunnel), forwarded to it as
    /// the client sent it — to the address `ProxyDestination` chose — and recorded when
    /// `recorder` is given.
    private func pass(_ request: IncomingRequest, _ arrival: ProxyArrival, reply: ReplyHandle, recorder: Recorder?) -> HandlerDecision {
        let exchange = started(request, arrival, reply: reply)
        let shownHost = arrival.host.contains(":") ? "[\(arrival.host)]" : arrival.host
        let tls = passage.tls
        guard let origin = try? ProxyUpstream(url: "\(arrival.scheme)://\(shownHost):\(arrival.port)", caFile: tls.caFile, insecure: !tls.verify) else {
            exchange.resolve(.notForwarded(reason: "\(arrival.host) is not a host stubd can reach"))
            let plan = ReplyPlan(content: .response(JSONReply.error("\(arrival.host) is not a host stubd can reach", status: 502)))
            exchange.record(plan)
            return .reply(plan, listener: exchange)
        }
        let head = request.method == "HEAD"
        passage.destination(arrival.host, arrival.port, own: own, reply: reply) { [self] chosen in
            let address: NetworkAddress
            switch chosen {
            case .failure(let refusal): return finish(exchange, .response(refusal.reply), .notForwarded(reason: refusal.message), reply: reply)
            case .success(let chosen): address = chosen
            }
            // Marked as stubd's own (RFC 9110 §7.6.3): should it ever come back, the admin API refuses it.
            var upstream = UpstreamRequest(host: arrival.host, port: arrival.port, method: request.method,
                                           target: request.rawPath + (request.rawQuery.map { "?\($0)" } ?? ""),
                                           headers: Self.forwardedHeaders(request.headers, origin: origin, recording: recorder != nil) + [NameValue("Via", own.via)],
                                           body: request.body, timeoutSeconds: origin.timeoutSeconds)
            upstream.tls = origin.tls
            upstream.address = address.description
            // A large answer goes to the client as it arrives; a recording keeps at most --record-max-body of it.
            upstream.relay = UpstreamRelay(above: ProxyUpstream.relayAbove, keepLimit: recorder?.options.maxBodyBytes ?? 0) { _, headers in
                ProxyUpstream.clientHeaders(headers)
            }
            exchange.resolve(.forwarded(upstream: origin.description))
            reply.upstream.fetch(upstream) { response in
                var plan = ReplyPlan(content: .response(origin.reply(for: response, head: head)), headOnly: head)
                if case .relayed(_, _, let body, _) = response {
                    plan.alreadySent = true
                    if let recorder, body == nil {
                        exchange.resolve(.forwarded(upstream: "\(origin.description) (not recorded: the body is over --record-max-body, \(recorder.options.maxBodyBytes) bytes)"))
                    }
                }
                exchange.record(plan)
                if let recorder { exchange.recorded(by: recorder, upstream: response) }
                reply.complete(plan, listener: exchange)
            }
        }
        return .later
    }

    /// The client's headers as a forward proxy passes them on: hop-by-hop ones and stubd's own
    /// dropped, `Host` the server's; a recording asks only for codings it can decode.
    static func forwardedHeaders(_ headers: [NameValue], origin: ProxyUpstream, recording: Bool) -> [NameValue] {
        let kept = [NameValue("Host", origin.hostHeader)] + ProxyUpstream.endToEndHeaders(headers)
        return recording ? ProxyUpstream.decodableAcceptEncoding(kept) : kept
    }
}
