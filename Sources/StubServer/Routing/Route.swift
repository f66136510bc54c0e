import Atomics
public import StubModel
import StubdMatching
import StubdEngine
import StubdState
public import StubdTemplates
import StubdStreams
import StubdCollections
import StubdWebSockets

/// A compiled stub: the fixture plus everything the hit path needs, computed once.
///
/// A class so that passing a matched route around the hit path costs one reference, not a copy
/// of the whole fixture; immutable, so shared freely between event loops.
public final class Route: Sendable, AnsweringRoute {
    /// The stub as declared.
    public let fixture: Fixture
    /// Stable handle for the admin API and sequence counters.
    public let id: RouteID
    /// Position in declaration order.
    public let order: Int
    /// Where the route stands when several match one request.
    package let precedence: Precedence
    /// The request pattern as matcher values.
    let matchers: RouteMatchers
    /// What it answers, one per step of a sequence (usually one).
    let outcomes: [CompiledOutcome]
    /// The reply of a route whose one step is a prepared reply and that saves nothing — most
    /// routes: the hit path sends it without reading the step.
    let preparedReply: PreparedReply?
    /// The request's path as listings and near-miss ranking show it, made once.
    let pathText: String
    /// Values the route saves for its session when it answers (`"save"`); empty for most routes.
    let saves: [SavedValue]
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
        self.outcomes = fixture.outcomes.map(CompiledOutcome.init)
        if outcomes.count == 1, fixture.saves.isEmpty, case .prepared(let reply) = outcomes[0] { preparedReply = reply } else { preparedReply = nil }
        saves = fixture.saves
    }

    /// Whether query, headers and body match (the index has checked method and path). Asked
    /// of the route rather than of a copy of its matchers: reading the struct out of the class
    /// for each candidate retained and released every matcher in it.
    func matchesBeyondPath(_ view: RequestView) -> Bool { matchers.matchesBeyondPath(view) }

    /// Whether a path-pattern (regex) route's path matches.
    func matchesPath(_ view: RequestView) -> Bool { matchers.path.matches(view) }

    /// Whether it answers in steps a client's re-send could skip: a sequence, or a scenario step.
    var hasSteps: Bool { isSequence || fixture.scenario != nil }

    /// Whether it answers in a sequence of steps.
    var isSequence: Bool { outcomes.count > 1 }

    /// The step for the `served`-th hit (0-based) of a sequence.
    func outcome(forHit served: Int) -> CompiledOutcome {
        outcomes[index(forHit: served)]
    }

    /// The position in the sequence of the `served`-th hit.
    package func index(forHit served: Int) -> Int {
        if outcomes.count == 1 { return 0 }
        switch fixture.afterLast {
        case .repeatLast: return min(served, outcomes.count - 1)
        case .cycle: return served % outcomes.count
        }
    }

    /// The answer of `step` (one of this route's) to the request in `context`: each kind's module
    /// makes it. The context is made only for a step that reads it (a prepared reply does not).
    func reply(_ step: CompiledOutcome, _ context: @autoclosure () -> OutcomeContext, collections: CollectionStore) -> ReplyContent {
        // Saved before the answer is made, so the answer can use what it saved.
        if !saves.isEmpty, let refusal = save(context()) { return .response(refusal) }
        switch step {
        case .prepared(let reply): return .response(reply)
        case .fault(let fault): return .fault(fault)
        case .templated(let template, let head): return .response(TemplateRenderer(context()).render(template, head: head))
        case .stream(let composer): return composer.content(context())
        case .collection(let operation):
            let context = context()
            return .response(collections.perform(operation, request: context.request, session: context.session))
        case .webSocket:
            // `WebSocketOpening` answers a WebSocket step before a reply is asked for.
            return .response(JSONReply.error("route \(name) is a WebSocket: open it with Upgrade: websocket", status: 426))
        }
    }

    /// Keeps the values of `"save"` for the session; a refusal (a template's or the store's) is
    /// the request's answer.
    private func save(_ context: OutcomeContext) -> PreparedReply? {
        let renderer = TemplateRenderer(context)
        var values: [(name: String, value: String)] = []
        for save in saves {
            do {
                values.append((save.name, try renderer.render(save.value)))
            } catch {
                return renderer.failureReply(error)
            }
        }
        do {
            try context.state.save(values, session: context.session)
        } catch {
            return renderer.failureReply(.store(error))
        }
        return nil
    }

    /// The path template, when the request's path has parameters.
    package var pathTemplate: PathTemplate? {
        if case .template(let template) = fixture.request.path { return template }
        return nil
    }

    /// The collection operation of a collection's route.
    package var collection: CollectionOperation? {
        if case .collection(let operation) = outcomes[0] { return operation }
        return nil
    }


    /// Whether it sends webhooks when it answers: the webhook observer asks on every exchange, so
    /// the answer is read here, beside the fixture, rather than through a copy of it.
    public var sendsWebhooks: Bool { !fixture.webhooks.isEmpty }

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

    /// What each step answers, for listings (`200`, `fault:reset`, `500,200` for a sequence,
    /// `200 stream`, `101 websocket`, `201 collection`).
    public var outcomeLabel: String { outcomeLabels.joined(separator: ",") }

    /// What each step answers, one label per step.
    public var outcomeLabels: [String] { outcomes.map(\.label) }
}
