import StubModel
import StubdEngine

/// An exchange decided but not yet carried out: the handler fills in everything it knows, and
/// the engine's `replyFinished` adds the latency and emits the record to the feed.
final class ExchangeDraft: ReplyListener {
    private let request: IncomingRequest
    private let session: SessionID?
    private let resolution: Exchange.Resolution
    private let outcome: Exchange.Outcome
    private let response: ExchangeResponse?
    private let feed: ExchangeFeed

    init(request: IncomingRequest, session: SessionID?, resolution: Exchange.Resolution, plan: ReplyPlan, feed: ExchangeFeed) {
        self.request = request
        self.session = session
        self.resolution = resolution
        switch plan.answer {
        case .reply(let reply):
            outcome = .status(reply.status)
            var extra = plan.extraHeaders
            if plan.closeConnection { extra.append(NameValue("Connection", "close")) }
            response = ExchangeResponse(reply: reply, extraHeaders: extra, headOnly: plan.headOnly)
        case .stream(let stream):
            // The head as sent; the body is written later and is not kept.
            outcome = .status(stream.status)
            var extra = plan.extraHeaders
            if plan.closeConnection { extra.append(NameValue("Connection", "close")) }
            response = ExchangeResponse(reply: PreparedReply(status: stream.status, headers: stream.headers, declaredLength: 0),
                                        extraHeaders: extra, headOnly: true)
        case .fault(let fault):
            outcome = .fault(fault)
            response = nil
        }
        self.feed = feed
    }

    /// A draft when anyone observes exchanges (`observers`, read at the request's arrival); nil
    /// (nothing to build or emit) otherwise.
    static func ifObserved(request: IncomingRequest, session: SessionID?, resolution: Exchange.Resolution, plan: ReplyPlan,
                           feed: ExchangeFeed, observers: ExchangeFeed.Observers? = nil) -> ExchangeDraft? {
        (observers ?? feed.observers).list.isEmpty ? nil
            : ExchangeDraft(request: request, session: session, resolution: resolution, plan: plan, feed: feed)
    }

    func replyFinished(latencySeconds: Double) {
        feed.emit(Exchange(request: request, session: session, resolution: resolution, outcome: outcome,
                           latencySeconds: latencySeconds, response: response))
    }
}
