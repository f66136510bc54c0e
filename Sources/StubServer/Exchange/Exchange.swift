public import Foundation
public import StubModel
public import StubdEngine
public import StubdWebSockets

/// One request and what became of it: made when the request arrives (its arrival time is the
/// moment the handler is called), resolved by the decision, completed by the engine when the
/// reply has been carried out, then handed whole to every observer — the journal keeps it as it
/// is, the log line, the metrics, webhooks and the recorder read it (WireMock's `ServeEvent` and
/// its post-serve actions are the model).
///
/// Filled in on the request's loop only (a later answer's work hands its plan over through the
/// loop's mailbox) and never changed once the engine has completed it: observers, the journal
/// and its readers see a finished record. That discipline is why it is `@unchecked Sendable`, and
/// why its mutable fields skip Swift's run-time exclusivity check (`@exclusivity(unchecked)`:
/// about 75 instructions per access, twenty accesses a request, for overlaps that one writer at a
/// time cannot make).
public final class Exchange: ReplyListener, ConversationSink, @unchecked Sendable {
    /// How the request was resolved.
    public enum Resolution: Sendable {
        /// Not decided yet: what an observer of arrivals sees.
        case arriving
        /// A stub answered.
        case route(Route)
        /// No stub matched; the closest route and what differed (`closest: zen (path: …)`).
        case miss(closest: String)
        /// No stub matched and the request was forwarded to this upstream (`--proxy-unmatched`).
        case forwarded(upstream: String)
        /// No stub matched and forwarding was refused (a page's origin, a forwarding loop).
        case notForwarded(reason: String)
        /// An admin API call.
        case admin
        /// A CORS preflight answered by stubd itself.
        case preflight
    }

    /// What went on the wire.
    public enum Ending: Sendable {
        /// A response with this status.
        case status(Int)
        /// A fault instead of a response.
        case fault(Fault)
    }

    /// The request as received (what the client sent: nothing adds headers to it).
    public let request: IncomingRequest
    /// When it arrived (wall clock).
    public let arrival: Date
    /// How it came in and whom it is for, read once (`Arrival`).
    public let arrived: Arrival
    /// Its session (`Arrival.session`: the proxy credentials' user, else `X-Stubd-Session`).
    public var session: SessionID? { arrived.session }
    /// Stub, miss, forwarded, admin or preflight.
    @exclusivity(unchecked) public private(set) var resolution: Resolution = .arriving
    /// The response sent; nil for a fault (no response, or not a whole one).
    @exclusivity(unchecked) public private(set) var response: ExchangeResponse?
    /// The fault produced instead of a response, if any.
    @exclusivity(unchecked) public private(set) var fault: Fault?
    /// How that fault went: as authored, cut short, or failing before the status (a route's
    /// `"faultSteps": "beforeStatus"`).
    @exclusivity(unchecked) public private(set) var faultSending = FaultSending.authored
    /// Whether that fault (one that sends no byte, a fault step) went as a response instead — cut
    /// short or failing before the status — so it could not be silently re-sent.
    public var faultSentAsResponse: Bool { fault.map(faultSending.replacesNoByte) ?? false }
    /// Who sent the request (`ClientProfile`): read only where an answer depends on the client
    /// (the admin guard, the dashboard, a route with fault steps), so a plain hit never makes one.
    public var client: ClientProfile { ClientProfile(request) }
    /// Seconds from arrival to the reply (or fault), delays included.
    @exclusivity(unchecked) public private(set) var latencySeconds: Double = 0
    /// Whether the route's own answer was served (a sequence or scenario step taken): not a step
    /// held for a client's re-send, not a refusal at a store bound. Webhooks follow only these.
    @exclusivity(unchecked) public private(set) var answeredByRoute = false
    /// Whether this request is the client's silent re-send of the previous one on the same route
    /// and session, which got a fault that sends no byte (curl, URLSession, Chromium, OkHttp and
    /// Java re-send such requests): journaled, marked, so a count can leave it out.
    @exclusivity(unchecked) public private(set) var isResend = false
    /// For a forwarded miss being recorded: the recorder and the upstream's answer.
    @exclusivity(unchecked) private(set) var recording: (recorder: Recorder, answer: CapturedResponse)?
    /// The engine's handle for this request: observers send stubd's own requests through it
    /// (webhooks) from the request's loop.
    package let reply: ReplyHandle?
    private let feed: ExchangeFeed?

    /// An exchange for `request`, arriving now; `feed` hears it when it ends. The one way an
    /// exchange is made for a request that came in.
    package init(request: IncomingRequest, feed: ExchangeFeed?, reply: ReplyHandle?) {
        self.request = request
        self.arrival = Date()
        self.arrived = Arrival(request)
        self.feed = feed
        self.reply = reply
    }

    /// A finished exchange made whole, with no engine behind it (tests, a replay of a record).
    package init(request: IncomingRequest, resolution: Resolution, outcome: Ending, latencySeconds: Double) {
        self.request = request
        self.arrival = Date()
        self.arrived = Arrival(request)
        self.resolution = resolution
        switch outcome {
        case .status(let status): response = ExchangeResponse(reply: PreparedReply(status: status, headers: [], body: []), extraHeaders: [], headOnly: false)
        case .fault(let fault): self.fault = fault
        }
        self.latencySeconds = latencySeconds
        self.feed = nil
        self.reply = nil
    }

    /// A copy keeping a different request (the journal's, cut to its bounds) and response.
    private init(copying exchange: Exchange, request: IncomingRequest, response: ExchangeResponse?) {
        self.request = request
        self.arrival = exchange.arrival
        self.arrived = exchange.arrived
        self.resolution = exchange.resolution
        self.response = response
        self.fault = exchange.fault
        self.faultSending = exchange.faultSending
        self.latencySeconds = exchange.latencySeconds
        self.answeredByRoute = exchange.answeredByRoute
        self.isResend = exchange.isResend
        self.feed = nil
        self.reply = nil
    }

    /// What went on the wire.
    public var outcome: Ending { fault.map { .fault($0) } ?? .status(response?.status ?? 0) }

    /// Whether the request was for the stubs (the journal keeps only these).
    public var isStubTraffic: Bool {
        switch resolution {
        case .route, .miss, .forwarded, .notForwarded: return true
        case .admin, .preflight, .arriving: return false
        }
    }

    /// The route that answered, when it sends webhooks: the webhook observer asks on every
    /// exchange, and this answers in one call.
    package var routeSendingWebhooks: Route? {
        guard answeredByRoute, case .route(let route) = resolution, route.sendsWebhooks else { return nil }
        return route
    }

    /// The route that answered, if one did.
    public var route: Route? {
        if case .route(let route) = resolution { return route }
        return nil
    }

    // MARK: Filled in on the request's loop

    /// The decision's resolution.
    package func resolve(_ resolution: Resolution) {
        self.resolution = resolution
    }

    /// The route's own answer is being served.
    func routeAnswered() {
        answeredByRoute = true
    }

    /// The request is a client's re-send of one that got a no-byte fault.
    func markResend() {
        isResend = true
    }

    /// What identifies this request among a client's re-sends: method, target and body.
    var resendSignature: Int {
        var hasher = Hasher()
        hasher.combine(request.method)
        hasher.combine(request.rawPath)
        hasher.combine(request.rawQuery)
        hasher.combine(request.body)
        return hasher.finalize()
    }

    /// What the plan sends: its response (the answer's own headers and those added on the way),
    /// its stream's head, or its fault.
    package func record(_ plan: ReplyPlan) {
        let extra = plan.extraHeaders
        switch plan.content {
        case .response(let reply):
            response = ExchangeResponse(reply: reply, extraHeaders: extra, headOnly: plan.headOnly)
        case .stream(let stream):
            // The head as sent; the body is written later and is not kept.
            response = ExchangeResponse(reply: PreparedReply(status: stream.status, headers: stream.headers, declaredLength: 0),
                                        extraHeaders: extra, headOnly: true)
        case .script(let script):
            // The head, and the body as planned (events or pieces, up to the journal's bound).
            response = ExchangeResponse(reply: PreparedReply(status: script.status, headers: script.headers,
                                                             body: script.bodyPrefix(ExchangeResponse.bodyLimit)),
                                        extraHeaders: extra, headOnly: plan.headOnly, declaredSize: script.bodySize)
        case .fault(let fault, let sending):
            self.fault = fault
            faultSending = sending
        case .upgrade(let upgrade):
            // The 101 now; the conversation's messages when it ends (`recordConversation`).
            response = ExchangeResponse(reply: PreparedReply(status: 101, headers: upgrade.headers, body: []), extraHeaders: [], headOnly: false)
        case .tunnel:
            // The CONNECT's 200; what goes through the tunnel is journaled request by request
            // (intercepted) or not at all (passed through).
            response = ExchangeResponse(reply: PreparedReply(status: 200, headers: [], body: []), extraHeaders: [], headOnly: true)
        }
    }

    /// A WebSocket conversation that ended: its messages both ways, as the response's body (JSON,
    /// cut to the journal's bound), under the 101 head recorded at the upgrade.
    package func recordConversation(_ transcript: [UInt8]) {
        guard let head = response else { return }
        response = ExchangeResponse(switching: PreparedReply(status: 101, headers: head.headers + [NameValue("Content-Type", "application/json")], body: []),
                                    conversation: Array(transcript.prefix(ExchangeResponse.bodyLimit)), size: transcript.count)
    }

    /// A forwarded miss that is being recorded: what the recorder observer will store.
    package func recorded(by recorder: Recorder, upstream: UpstreamResponse) {
        recording = (recorder, CapturedResponse(upstream, limit: recorder.options.maxBodyBytes))
    }

    /// A relayed WebSocket conversation that is being recorded, whole once it has ended.
    package func recorded(by recorder: Recorder, conversation: CapturedConversation) {
        recording = (recorder, .conversation(conversation))
    }

    /// The engine has carried the plan out: the record is complete and goes to the observers.
    public func replyFinished(latencySeconds: Double) {
        self.latencySeconds = latencySeconds
        feed?.emit(self)
    }

    // MARK: Bounded copies

    /// This exchange as the journal keeps it: itself when the request's headers and body fit
    /// the bounds (a reference, no copy), else a copy with the request cut to them; a response
    /// other than a route's shared answer cut to `ExchangeResponse.bodyLimit`.
    func bounded(headerLimit: Int, bodyLimit: Int, redactor: Redactor) -> Exchange {
        var headerBytes = 0
        var kept = request.headers.count
        for (index, header) in request.headers.enumerated() {
            headerBytes += header.name.utf8.count + header.value.utf8.count
            if headerBytes > headerLimit { kept = index; break }
        }
        let cutsResponse: Bool
        if case .route = resolution { cutsResponse = false } else { cutsResponse = response.map { $0.bodySize > ExchangeResponse.bodyLimit } ?? false }
        guard kept < request.headers.count || request.body.count > bodyLimit || cutsResponse else { return self }
        var cut = request
        if kept < request.headers.count { cut.headers = Array(request.headers.prefix(kept)) }
        if request.body.count > bodyLimit {
            cut.body = RequestJournal.kept(request.body, contentType: request.header("Content-Type"), limit: bodyLimit, redactor: redactor)
        }
        let copy = Exchange(copying: self, request: cut, response: cutsResponse ? response?.bounded() : response)
        copy.bodySize = request.body.count
        return copy
    }

    /// The request body's size as received (set on a copy whose body was cut).
    @exclusivity(unchecked) private(set) var bodySize: Int?

    /// The full size of the request's body.
    public var requestBodySize: Int { bodySize ?? request.body.count }
}
