import Atomics
import StubModel
import StubdEngine

/// A compiled stub: the fixture plus everything the hit path needs, computed once.
///
/// A class so that passing a matched route around the hit path costs one reference, not a copy
/// of the whole fixture; immutable, so shared freely between event loops.
public final class Route: Sendable {
    /// The stub as declared.
    public let fixture: Fixture
    /// Stable handle for the admin API and sequence counters.
    public let id: RouteID
    /// Position in declaration order.
    public let order: Int
    /// Where the route stands when several match one request.
    let precedence: Precedence
    /// The request pattern as matcher values.
    let matchers: RouteMatchers
    /// What to do when it matches, one per outcome of a sequence (usually one).
    public let contents: [ReplyContent]
    /// Per action, the response template to render instead (`"template": true`); empty when
    /// the route has none, so an untemplated hit checks one count.
    let templates: [ResponseTemplate?]
    /// Per action, the stream composer of a streamed answer (`"stream"`, `"llm"`); empty when the
    /// route has none, so a plain hit checks one count.
    let streams: [StreamComposer?]
    /// Per templated action, its status and headers made once (nil when a header is templated).
    let templateHeads: [PreparedReply?]
    /// Per action, the WebSocket script it holds; empty when no action is one.
    let webSockets: [CompiledWebSocket?]
    /// For a collection's route: what it does with the session's items.
    package let collection: CollectionOperation?
    /// The request's path as listings and near-miss ranking show it, made once.
    let pathText: String
    /// Values the route saves for its session when it answers (`"save"`); empty for most routes.
    let saves: [SavedValue]
    /// Requests sent after the route answers (`"webhooks"`); empty for most routes.
    let webhooks: [CompiledWebhook]
    /// Requests this route has answered since it was loaded (a reload or a replacement starts
    /// again at 0): one relaxed atomic add per hit.
    let hitCounter = ManagedAtomic<Int>(0)

    /// Requests this route has answered since it was loaded.
    public var hits: Int { hitCounter.load(ordering: .relaxed) }

    init(fixture: Fixture, id: RouteID, order: Int) {
        self.fixture = fixture
        self.id = id
        self.order = order
        self.precedence = Precedence(fixture: fixture, order: order)
        self.matchers = RouteMatchers(fixture.request)
        self.pathText = fixture.request.path.description
        self.contents = fixture.outcomes.map { outcome in
            if let fault = outcome.fault { return .fault(fault) }
            switch outcome {
            case .response(let response): return .response(PreparedReply(status: response.status, headers: response.headers, body: response.body))
            // Answered from the session's items (`reply(forHit:…)`); this reply is never sent.
            default: return .response(PreparedReply(status: 500, headers: [], body: []))
            }
        }
        if case .collection(let operation)? = fixture.outcomes.first { collection = operation } else { collection = nil }
        let scripts = fixture.outcomes.map { outcome -> CompiledWebSocket? in if case .websocket(let script) = outcome { CompiledWebSocket(script) } else { nil } }
        self.webSockets = scripts.contains { $0 != nil } ? scripts : []
        let streams = fixture.outcomes.map(StreamComposer.init)
        self.streams = streams.contains { $0 != nil } ? streams : []
        saves = fixture.saves
        webhooks = fixture.webhooks.compactMap(CompiledWebhook.init)
        let templates = fixture.outcomes.map { outcome -> ResponseTemplate? in
            guard case .response(let response) = outcome, response.template else { return nil }
            return try? ResponseTemplate.compile(response).get()
        }
        self.templates = templates.contains { $0 != nil } ? templates : []
        // A template whose header values are all constant: its head is made once.
        self.templateHeads = self.templates.map { template in
            guard let template, template.headers.allSatisfy({ $0.value.isConstant }) else { return nil }
            let headers = template.headers.map { header in
                NameValue(header.name, header.value.parts.map { part in if case .literal(let text) = part { text } else { "" } }.joined())
            }
            return PreparedReply(status: template.status, headers: headers, body: [])
        }
    }

    /// The first (usually only) action.
    public var content: ReplyContent { contents[0] }

    /// Whether query, headers and body match (the index has checked method and path). Asked
    /// of the route rather than of a copy of its matchers: reading the struct out of the class
    /// for each candidate retained and released every matcher in it.
    func matchesBeyondPath(_ view: RequestView) -> Bool { matchers.matchesBeyondPath(view) }

    /// Whether a path-pattern (regex) route's path matches.
    func matchesPath(_ view: RequestView) -> Bool { matchers.path.matches(view) }

    /// Whether it answers in steps a client's re-send could skip: a sequence, or a scenario step.
    var hasSteps: Bool { contents.count > 1 || fixture.scenario != nil }

    /// Whether one of its steps is a fault that sends no byte, which `FaultStepDelivery` places.
    var hasFaultStep: Bool {
        hasSteps && contents.contains { action in
            if case .fault(let fault) = action { return fault.sendsNoResponse }
            return false
        }
    }

    /// The action for the `served`-th hit (0-based) of a sequence.
    public func content(forHit served: Int) -> ReplyContent {
        contents[index(forHit: served)]
    }

    /// The position in the sequence of the `served`-th hit.
    func index(forHit served: Int) -> Int {
        if contents.count == 1 { return 0 }
        switch fixture.afterLast {
        case .repeatLast: return min(served, contents.count - 1)
        case .cycle: return served % contents.count
        }
    }

    /// The answer for the `served`-th hit of `request`: its template rendered when it has one.
    func reply(forHit served: Int, request: IncomingRequest, session: SessionID?, state: TemplateState, collections: CollectionStore,
                source: any CollectionItemsSource) -> ReplyContent {
        // Saved before the answer is made, so the answer can use what it saved.
        if !saves.isEmpty {
            let renderer = TemplateRenderer(request: request, route: self, session: session, state: state, collections: source)
            var values: [(name: String, value: String)] = []
            for save in saves {
                do {
                    values.append((save.name, try renderer.render(save.value)))
                } catch {
                    return .response(renderer.failureReply(error))
                }
            }
            do {
                try state.save(values, session: session)
            } catch {
                return .response(renderer.failureReply(.store(error)))
            }
        }
        if let collection { return .response(collections.perform(collection, request: request, route: self, session: session)) }
        let index = index(forHit: served)
        if !streams.isEmpty, let composer = streams[index] {
            let renderer = TemplateRenderer(request: request, route: self, session: session, state: state, collections: source)
            return composer.content(request: request, renderer: renderer, state: state, session: session)
        }
        guard !templates.isEmpty, let template = templates[index] else { return contents[index] }
        return .response(TemplateRenderer(request: request, route: self, session: session, state: state, collections: source)
            .render(template, head: templateHeads[index]))
    }

    /// The WebSocket script answering hit number `served`, if that answer is one.
    func webSocket(forHit served: Int) -> CompiledWebSocket? {
        webSockets.isEmpty ? nil : webSockets[index(forHit: served)]
    }

    /// The label used in logs and listings: the fixture's name.
    public var name: String { fixture.name }

    /// The delay for one request, from the fields directly (a method call on `fixture` would copy
    /// the whole value on the serving path).
    var delayForRequest: Double? {
        if let distribution = fixture.delayDistribution { return distribution.sample() }
        return fixture.delay
    }

    /// `delayed(0.5s)` or `immediate`, for listings.
    public var behaviourLabel: String {
        switch fixture.delayDistribution {
        case .uniform(let low, let high)?: return "delayed(\(JSONWriter.format(low))–\(JSONWriter.format(high))s)"
        case .lognormal(let median, _, _)?: return "delayed(~\(JSONWriter.format(median))s)"
        case nil: return fixture.delay.map { "delayed(\(JSONWriter.format($0))s)" } ?? "immediate"
        }
    }

    /// The status or fault, for listings (`200`, `fault:reset`, `500,200` for a sequence).
    public var outcomeLabel: String {
        contents.map { action in
            switch action {
            case .response(let reply): return String(reply.status)
            case .stream(let stream): return "\(stream.status) stream"
            case .script(let script): return "\(script.status) stream"
            case .fault(let fault): return "fault:\(fault.rawValue)"
            case .upgrade: return "101 websocket"
            }
        }.joined(separator: ",")
    }
}
