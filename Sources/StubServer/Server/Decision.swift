import StubModel
import StubdEngine

/// What the handler decided for one request — the stage between the route (or the admin
/// endpoint) and the reply the engine carries out. At the engine seam a reply becomes
/// `HandlerDecision.reply`; a forward and a later answer become `.later`.
package enum Decision {
    /// Carry this plan out now (after its delay).
    case reply(ReplyPlan)
    /// No stub matched: send the request to this upstream and answer with what it says.
    case forward(Forwarding.Target)
    /// An admin call answered later, from any thread: the work calls back with the reply.
    case later(@Sendable (_ answer: @escaping @Sendable (PreparedReply) -> Void) -> Void)

    /// Whether it replies with a fault that sends no byte (the Delivery stage notes and places those).
    var sendsNoByteFault: Bool {
        switch self {
        case .reply(let plan):
            if case .fault(let fault, _) = plan.content { return fault.sendsNoResponse }
            return false
        case .forward, .later: return false
        }
    }

    /// The plan of a `.reply` (tests read it).
    package var plan: ReplyPlan? {
        if case .reply(let plan) = self { return plan }
        return nil
    }
}
