public import Recording
public import StubModel
import StubdEngine

/// Where the proxy meets recording: an exchange observer that hands each forwarded miss being
/// recorded — the engine's request and the upstream's answer, as the plain values the `Recording`
/// module works on (references copied, no bytes) — to its recorder's queue, after the client has
/// its reply. The served route table names what Swift targets cover.
package struct RecordingObserver: ExchangeObserver {
    package init() {}

    package func exchangeEnded(_ exchange: Exchange) {
        guard let recording = exchange.recording else { return }
        recording.recorder.record(CapturedRequest(exchange.request), recording.answer)
    }
}

extension CapturedRequest {
    /// The engine's request as recording sees it.
    init(_ request: IncomingRequest) {
        self.init(method: request.method, rawPath: request.rawPath, rawQuery: request.rawQuery, headers: request.headers, body: request.body)
        host = request.proxied?.host
    }
}

extension CapturedResponse {
    /// The upstream's answer as recording sees it: a relayed body kept whole counts as answered;
    /// one longer than `limit` bytes (the recorder's `--record-max-body`) is incomplete.
    init(_ response: UpstreamResponse, limit: Int) {
        switch response {
        case .answered(let status, let headers, let body):
            self = .answered(status: status, headers: headers, body: body)
        case .relayed(let status, let headers, let body?, let arrivals):
            self = arrivals.isEmpty ? .answered(status: status, headers: headers, body: body)
                                    : .streamed(status: status, headers: headers, body: body, arrivals: arrivals)
        case .relayed:
            self = .incomplete(limit: limit)
        case .failed:
            self = .unanswered
        }
    }
}

extension RouteTable: RecordingTargets {
    /// The target fixture that would answer `request` here.
    public func target(for request: CapturedRequest) -> Fixture? {
        let incoming = IncomingRequest(method: request.method, rawPath: request.rawPath, rawQuery: request.rawQuery,
                                       headers: request.headers, body: request.body)
        guard case .hit(let route) = lookup(incoming) else { return nil }
        return route.fixture
    }
}
