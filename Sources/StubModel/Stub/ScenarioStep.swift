/// A step of a named scenario (a state machine shared by several stubs): the stub matches only
/// while the scenario is in `requiredState` (any state when nil) and, once served, moves it to
/// `newState` (unchanged when nil). Every scenario starts in `ScenarioStep.started`.
public struct ScenarioStep: Sendable, Hashable {
    /// The state every scenario starts in (and returns to on reset), as in WireMock.
    public static let started = "Started"

    /// The scenario's name.
    public var name: String
    /// The state the scenario must be in for this stub to match.
    public var requiredState: String?
    /// The state the scenario moves to after this stub answers.
    public var newState: String?

    /// Creates a step.
    public init(name: String, requiredState: String? = nil, newState: String? = nil) {
        self.name = name
        self.requiredState = requiredState
        self.newState = newState
    }
}
