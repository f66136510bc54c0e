/// One stub as data: what request it answers, what it answers, and when.
///
/// This is the common form of a Swift target and a fixture file entry; the route table is
/// compiled from a list of these, whatever their origin. Equality ignores `name` and `source`
/// (provenance), so a table built from targets equals one loaded from exported files.
public struct Fixture: Sendable, CustomStringConvertible {
    /// A human name: the target's case (`userProfile(login: "octocat")`) or the fixture's `name`.
    public var name: String
    /// Where it came from: `fixtures/github.json routes[3]` or `swift GitHubAPI.zen`.
    public var source: String
    /// Which requests this stub answers.
    public var request: RequestPattern
    /// What it answers, in order: one outcome for an ordinary stub, several for a sequence
    /// ("first call fails, second succeeds"). Never empty.
    public var outcomes: [StubOutcome]
    /// What happens after the last outcome of a sequence.
    public var afterLast: SequenceEnd
    /// The scenario step this stub takes part in, if any.
    public var scenario: ScenarioStep?
    /// Sends the body in chunks spread over time (a slow network), if set.
    public var dribble: Dribble?
    /// Seconds to wait before answering; nil answers at once (Moya's `.immediate`).
    public var delay: Double?
    /// A delay drawn per request instead of `delay` (`{"uniform": …}`, `{"lognormal": …}`).
    public var delayDistribution: DelayDistribution?
    /// 1 is the highest; routes without one have `defaultPriority`. Decides first between routes
    /// that all match a request (see docs/MATCHING.md's precedence rules).
    public var priority: Int
    /// Values this route keeps for its session when it answers (`"save"`): each a template,
    /// read later as `{{saved.NAME}}` — a token a login returned, an id a create made.
    public var saves: [SavedValue] = []
    /// Requests sent after the route answers (`"webhooks"`); empty for most routes.
    public var webhooks: [Webhook] = []
    /// Where its fault steps make the client fail (`"faultSteps"`).
    public var faultSteps: FaultStepPlacement = .beforeStatus

    /// The priority of a route that names none (WireMock's convention: 1 highest, 5 default).
    public static let defaultPriority = 5

    /// Creates a fixture with one outcome.
    public init(name: String, source: String, request: RequestPattern, outcome: StubOutcome, delay: Double? = nil,
                priority: Int = Fixture.defaultPriority, scenario: ScenarioStep? = nil) {
        self.init(name: name, source: source, request: request, outcomes: [outcome], delay: delay, priority: priority, scenario: scenario)
    }

    /// Creates a fixture answering with `outcomes` in turn.
    public init(name: String, source: String, request: RequestPattern, outcomes: [StubOutcome], afterLast: SequenceEnd = .repeatLast,
                delay: Double? = nil, priority: Int = Fixture.defaultPriority, scenario: ScenarioStep? = nil) {
        precondition(!outcomes.isEmpty, "a fixture needs at least one outcome")
        self.name = name
        self.source = source
        self.request = request
        self.outcomes = outcomes
        self.afterLast = afterLast
        self.delay = delay
        self.priority = priority
        self.scenario = scenario
    }

    /// The first (for most stubs, the only) outcome.
    public var outcome: StubOutcome { outcomes[0] }

    /// `name (source)`, the way errors and listings name a route.
    public var description: String { "\(name) (\(source))" }
}

extension Fixture: Equatable {
    /// Same request, answer and timing; provenance is ignored.
    public static func == (lhs: Fixture, rhs: Fixture) -> Bool {
        lhs.request == rhs.request && lhs.outcomes == rhs.outcomes && lhs.delay == rhs.delay && lhs.priority == rhs.priority
            && lhs.scenario == rhs.scenario && (lhs.outcomes.count == 1 || lhs.afterLast == rhs.afterLast)
            && lhs.dribble == rhs.dribble && lhs.delayDistribution == rhs.delayDistribution && lhs.saves == rhs.saves
            && lhs.webhooks == rhs.webhooks && lhs.faultSteps == rhs.faultSteps
    }
}
