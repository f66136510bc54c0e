import StubModel

/// An exchange decided but not yet carried out: the handler fills in everything it knows, and
/// the engine's `replyFinished` adds the latency and emits the record to the feed.
final class ExchangeDraft: ReplyListener {
    private let request: IncomingRequest
    private let session: SessionID?
    private let resolution: Exchange.Resolution
    private let outcome: Exchange.Outcome
    private let feed: ExchangeFeed

    init(request: IncomingRequest, session: SessionID?, resolution: Exchange.Resolution, answer: Answer, feed: ExchangeFeed) {
        self.request = request
        self.session = session
        self.resolution = resolution
        switch answer {
        case .reply(let reply): outcome = .status(reply.status)
        case .fault(let fault): outcome = .fault(fault)
        }
        self.feed = feed
    }

    func replyFinished(latencySeconds: Double) {
        feed.emit(Exchange(request: request, session: session, resolution: resolution, outcome: outcome,
                           latencySeconds: latencySeconds))
    }
}
