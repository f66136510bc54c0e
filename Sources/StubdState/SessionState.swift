package import StubModel

/// What a store keeps per session (scenario positions, template counters and clocks, collection
/// items, the journal, webhooks, open conversations): the session store resets a session by
/// asking each of its stores in turn, so an answer kind's state joins a reset by conforming,
/// not by a new line in the store.
package protocol SessionState: AnyObject, Sendable {
    /// Forgets what `session` kept (nil: every session), giving its bytes back to the budget.
    func reset(session: SessionID?)
}
