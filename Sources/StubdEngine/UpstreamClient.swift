/// The calls stubd makes to other servers from a request's loop, handed out by the request's
/// `ReplyHandle` (`upstream`): an upstream's answer that becomes the reply (`fetch`), an upstream
/// WebSocket relayed to the client (`openWebSocket`), and stubd's own requests, which are no reply
/// at all (`send`: a webhook). Each runs on that request's loop, which never waits for it.
public struct UpstreamClient: @unchecked Sendable {
    /// The request the calls are made for (and from whose loop).
    let handle: ReplyHandle

    /// Sends `upstream` and calls `then` on the request's loop with the answer; complete the
    /// handle from there. Call it while handling the request (on its loop). With `upstream.relay`,
    /// a large answer is sent to the client as it arrives and `then` gets `.relayed`.
    public func fetch(_ upstream: UpstreamRequest, then: @escaping (UpstreamResponse) -> Void) {
        handle.carrier.fetch(upstream, for: handle, then: then)
    }

    /// Opens a WebSocket to `upstream` (its request line and headers: the client's key, version
    /// and subprotocols) and calls `then` on the request's loop with the answer; complete the
    /// handle from there (an `.upgrade` relaying the conversation, or the upstream's refusal).
    /// Call it while handling the request (on its loop).
    public func openWebSocket(_ upstream: UpstreamRequest, messageLimit: Int, then: @escaping (UpstreamWebSocketAnswer) -> Void) {
        handle.carrier.openWebSocket(upstream, messageLimit: messageLimit, for: handle, then: then)
    }

    /// Sends `upstream` for stubd itself (a webhook) after `seconds`, and calls `then` on the
    /// request's loop with the answer. Not part of the reply: it may run after the reply ends and
    /// is never relayed to the client. Call it on the request's loop (while handling it, or from
    /// an earlier `then`).
    public func send(_ upstream: UpstreamRequest, after seconds: Double, then: @escaping (UpstreamResponse) -> Void) {
        handle.carrier.send(upstream, after: seconds, then: then)
    }

    /// Resolves `host` (an address literal in any spelling at once; a name through the hosts
    /// file and DNS, never blocking the loop) and calls `then` on the request's loop, so a caller
    /// can decide by the address a connection would reach, then connect to exactly that address
    /// (`UpstreamRequest.address`, `TunnelTarget.pass`). Call it on the request's loop.
    public func resolve(_ host: String, then: @escaping (AddressLookup) -> Void) {
        handle.carrier.resolve(host, then: then)
    }
}
