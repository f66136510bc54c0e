import AdminContract
public import StubModel
package import StubdEngine
import StubdState

/// What stubd does, as a forward proxy, with a host no route names (`serve --proxy-unrouted`).
public enum UnroutedHosts: String, Sendable, CaseIterable {
    /// The request fails at once (a `CONNECT` gets `403`, a plain request `502`), journaled as a
    /// miss naming the host, so an offline UI test sees every call it did not stub — and a strict
    /// session fails on it. The default: a test must not reach the network by accident.
    case refuse
    /// Passed on untouched: a `CONNECT` is tunnelled to the real server (no interception, so a
    /// pinned SDK keeps working), a plain request forwarded to it.
    case pass
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

    package init(stubs: StubHandler, admin: SessionStore, feed: ExchangeFeed, unrouted: UnroutedHosts, own: OwnTraffic) {
        self.own = own
        self.stubs = stubs
        self.admin = admin
        self.feed = feed
        self.unrouted = unrouted
    }

    package func handle(_ request: IncomingRequest, reply: ReplyHandle) -> HandlerDecision {
        guard let arrival = request.proxied else { return stubs.handle(request, reply: reply) }
        let routed = admin.store.snapshot.hosts.contains(arrival.host)
        if !routed, unrouted == .pass, own.isThisStubd(host: arrival.host, port: arrival.port) {
            // Passed on, it would reach stubd's own ports (the admin API among them) unasked.
            let refusal = JSONReply.error("stubd's proxy does not pass requests on to stubd itself", status: 403,
                                          problems: ["call \(arrival.host):\(arrival.port) directly, not through the proxy"])
            return answer(request, arrival, .response(refusal), .notForwarded(reason: "\(arrival.host):\(arrival.port) is this stubd"))
        }
        if arrival.isConnect {
            if routed { return .reply(ReplyPlan(content: .tunnel(.intercept(arrival)))) }
            switch unrouted {
            case .pass:
                return answer(request, arrival, .tunnel(.pass(host: arrival.host, port: arrival.port)),
                              .forwarded(upstream: "\(arrival.host):\(arrival.port) (tunnelled, not intercepted)"))
            case .refuse:
                return refuse(request, arrival, status: 403)
            }
        }
        if AdminContract.isAdmin(request.rawPath) {
            return answer(request, arrival, .response(JSONReply.error("stubd's admin API is not reachable through its proxy", status: 403,
                                                                      problems: ["call it on stubd's own port"])), .admin)
        }
        guard routed else {
            switch unrouted {
            case .refuse: return refuse(request, arrival, status: 502)
            case .pass: return pass(request, arrival, reply: reply)
            }
        }
        var inner = request
        inner.headers.removeAll { $0.name.equalsIgnoringCase("X-Stubd-Host") || ($0.name.equalsIgnoringCase(SessionID.header) && arrival.session != nil) }
        inner.headers.append(NameValue("X-Stubd-Host", arrival.host))
        if let session = arrival.session { inner.headers.append(NameValue(SessionID.header, session)) }
        return stubs.handle(inner, reply: reply)
    }

    /// `content` as the answer, journaled with `resolution`.
    private func answer(_ request: IncomingRequest, _ arrival: ProxyArrival, _ content: ReplyContent, _ resolution: Exchange.Resolution) -> HandlerDecision {
        let exchange = Exchange(request: request, session: SessionID(arrival.session), feed: feed, reply: nil)
        feed.start(exchange, observers: feed.observers)
        exchange.resolve(resolution)
        let plan = ReplyPlan(content: content, headOnly: request.method == "HEAD")
        exchange.record(plan)
        return .reply(plan, listener: exchange)
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

    /// A plain request to an unrouted host, forwarded to it.
    private func pass(_ request: IncomingRequest, _ arrival: ProxyArrival, reply: ReplyHandle) -> HandlerDecision {
        let exchange = Exchange(request: request, session: SessionID(arrival.session), feed: feed, reply: reply)
        feed.start(exchange, observers: feed.observers)
        guard let origin = try? ProxyUpstream(url: "http://\(arrival.host.contains(":") ? "[\(arrival.host)]" : arrival.host):\(arrival.port)") else {
            exchange.resolve(.notForwarded(reason: "\(arrival.host) is not a host stubd can reach"))
            let plan = ReplyPlan(content: .response(JSONReply.error("\(arrival.host) is not a host stubd can reach", status: 502)))
            exchange.record(plan)
            return .reply(plan, listener: exchange)
        }
        exchange.resolve(.forwarded(upstream: origin.description))
        reply.upstream.fetch(origin.forward(request)) { response in
            let plan = ReplyPlan(content: .response(origin.reply(for: response, head: request.method == "HEAD")), headOnly: request.method == "HEAD")
            exchange.record(plan)
            reply.complete(plan, listener: exchange)
        }
        return .later
    }
}
