import CLibevent

/// A request a command makes on its own, outside any server (`stubd verify` asking the live API,
/// `stubd ready` asking a running stubd): the engine's upstream call (libevent's client, OpenSSL
/// for HTTPS, the system's trust store) on a loop of its own, run on the calling thread until the
/// answer or the timeout. It keeps Foundation's URLSession — and the libcurl it needs on Linux —
/// out of the `stubd` executable.
public enum CommandRequest {
    /// Sends `request` and waits for its answer (at most its `timeoutSeconds`, which libevent
    /// enforces per connection). Blocks the calling thread; never call it from a server's loop.
    public static func send(_ request: UpstreamRequest) -> UpstreamResponse {
        var request = request
        request.relay = nil
        let worker: Worker
        do {
            worker = try Worker(listeners: [], configuration: EngineConfiguration(), handler: NoRequests())
        } catch {
            return .failed(error.description)
        }
        var answer: UpstreamResponse = .failed("no answer")
        worker.dnsStarted = true
        UpstreamCall.start(request, for: nil, on: worker) { response in
            answer = response
            if let stop = worker.stopEvent { event_active(stop, EV_READ, 0) }
        }
        // A call that failed before reaching the loop has already activated the stop event, so
        // the loop ends at once.
        worker.run()
        return answer
    }
}

/// The handler of a loop that accepts nothing (a command's own loop has no listener).
private struct NoRequests: EngineHandler {
    func handle(_ request: IncomingRequest, reply: ReplyHandle) -> HandlerDecision {
        .reply(ReplyPlan(content: .response(PreparedReply(status: 503, headers: [], body: []))))
    }
}
