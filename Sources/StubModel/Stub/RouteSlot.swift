/// What a request reaches among stubs: the request pattern, the scenario step and the priority.
/// Two fixtures with the same slot and different answers cannot both be served — the route table
/// refuses them, and the WireMock import settles them as WireMock does — so both use this one
/// definition.
public struct RouteSlot: Hashable, Sendable {
    /// The request pattern.
    public let request: RequestPattern
    /// The scenario step, if any.
    public let scenario: ScenarioStep?
    /// The priority.
    public let priority: Int

    /// The slot `fixture` occupies.
    public init(_ fixture: Fixture) {
        request = fixture.request
        scenario = fixture.scenario
        priority = fixture.priority
    }
}
