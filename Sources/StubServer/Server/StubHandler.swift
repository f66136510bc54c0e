import Dispatch
package import StubModel
package import StubdEngine

/// Answers requests, one `Exchange` each, made as the request arrives: the exchange goes through
/// the `Pipeline`'s stages (admin API, CORS preflight, the stub lookup and its miss, batches,
/// Delivery), and the decision is carried out — now, off the loop for large inputs, or later for
/// a forwarded miss or an admin call answered from another queue. The engine completes the
/// exchange, and the feed hands it to the observers (journal, log line, metrics, webhooks,
/// recorder). This file assembles; it names no feature (`packaging/check-imports.py` keeps it so).
package final class StubHandler: EngineHandler {
    private let pipeline: Pipeline
    private let feed: ExchangeFeed
    /// How stubd knows the requests it sent itself (webhooks, forwarded misses) when they come back.
    let own: OwnTraffic

    package init(admin: SessionStore, responder: any AdminResponder, cors: CORSPolicy, redactor: Redactor = Redactor(), feed: ExchangeFeed,
                 own: OwnTraffic = OwnTraffic()) {
        self.pipeline = Pipeline(admin: admin, responder: responder, cors: cors, redactor: redactor, own: own)
        self.feed = feed
        self.own = own
    }

    package func handle(_ request: IncomingRequest, reply: ReplyHandle) -> HandlerDecision {
        let observers = feed.observers
        let exchange = Exchange(request: request, feed: feed, reply: reply)
        feed.start(exchange, observers: observers)
        if pipeline.decidesOffTheLoop(request) {
            decideOffTheLoop(exchange, reply: reply)
            return .later
        }
        switch pipeline.decide(exchange) {
        case .reply(let plan):
            exchange.record(plan)
            return .reply(plan, listener: exchange)
        case .forward(let target):
            pipeline.forward(exchange, to: target, reply: reply)
            return .later
        case .later(let work):
            answerLater(exchange, work: work, reply: reply)
            return .later
        }
    }

    /// Where large inputs are decided: as many at once as the system gives threads.
    private static let offLoop = DispatchQueue(label: "stubd.large-bodies", qos: .userInitiated, attributes: .concurrent)

    /// Decides on `offLoop`, then completes the handle (from any thread), or goes back to the
    /// request's loop to forward it.
    private func decideOffTheLoop(_ exchange: Exchange, reply: ReplyHandle) {
        Self.offLoop.async { [self] in
            switch pipeline.decide(exchange) {
            case .reply(let plan):
                exchange.record(plan)
                reply.complete(plan, listener: exchange)
            case .forward(let target):
                reply.onLoop { [self] in pipeline.forward(exchange, to: target, reply: reply) }
            case .later(let work):
                answerLater(exchange, work: work, reply: reply)
            }
        }
    }

    /// An admin call whose handler answers later, from any thread: the reply handle is completed
    /// then (through the loop's mailbox), and the loop serves other requests meanwhile.
    private func answerLater(_ exchange: Exchange, work: @Sendable (_ answer: @escaping @Sendable (PreparedReply) -> Void) -> Void,
                             reply: ReplyHandle) {
        let request = exchange.request
        work { prepared in
            let plan = ReplyPlan(content: .response(prepared), headOnly: request.method == "HEAD")
            exchange.record(plan)
            reply.complete(plan, listener: exchange)
        }
    }

    /// A decision and the exchange it resolved.
    package struct Decided {
        package let decision: Decision
        package let exchange: Exchange
        /// The plan of a reply decided now.
        package var plan: ReplyPlan? { decision.plan }
        package var resolution: Exchange.Resolution { exchange.resolution }
        package var session: SessionID? { exchange.session }
        /// The work of an admin call answered later.
        package var later: (@Sendable (_ answer: @escaping @Sendable (PreparedReply) -> Void) -> Void)? {
            if case .later(let work) = decision { return work }
            return nil
        }
    }

    /// The whole decision without a socket, for a request alone (tests): an exchange nobody
    /// observes.
    package func decide(_ request: IncomingRequest) -> Decided {
        let exchange = Exchange(request: request, feed: nil, reply: nil)
        return Decided(decision: pipeline.decide(exchange), exchange: exchange)
    }

    /// What to answer `exchange`'s request, and why (the exchange's resolution).
    package func decide(_ exchange: Exchange) -> Decision {
        pipeline.decide(exchange)
    }
}
