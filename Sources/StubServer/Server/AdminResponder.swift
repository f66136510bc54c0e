import StubModel
import StubdEngine

/// What answers the admin API (`/__stubd/…`): the serving core hands each such request to it with
/// its exchange, having refused only what stubd sent itself (`OwnTraffic`). The `AdminAPI`
/// module's service — access rules, the endpoint table, the dashboard's endpoints — is the one a
/// running server is given (`StubdRuntime`).
package protocol AdminResponder: Sendable {
    /// Resolves `exchange` (`.admin`, or `.preflight`) and decides its answer.
    func decide(_ exchange: Exchange) -> Decision
}
