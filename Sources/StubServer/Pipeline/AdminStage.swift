import AdminContract
import StubModel
import StubdEngine
import StubdState

/// The pipeline's first stage: a request for `/__stubd/…` goes to the admin API's responder —
/// unless stubd sent it itself (a webhook, a forwarded miss), which never uses the admin API
/// however it was addressed. Every other request goes on to the next stage.
struct AdminStage {
    /// What answers `/__stubd/…` (the admin API's service).
    let responder: any AdminResponder
    /// How stubd knows the requests it sent itself when they come back.
    let own: OwnTraffic

    /// The admin answer, or nil when `exchange`'s request is not an admin call.
    @inline(__always)
    func decide(_ exchange: Exchange) -> Decision? {
        let request = exchange.request
        guard AdminContract.isAdmin(request.rawPath) else { return nil }
        guard !own.isOwn(request) else {
            exchange.resolve(.admin)
            return .reply(ReplyPlan(content: .response(Self.ownTrafficRefusal), headOnly: request.method == "HEAD"))
        }
        return responder.decide(exchange)
    }

    /// The admin API's answer to a request stubd sent itself (a webhook, a forwarded miss),
    /// however it was addressed.
    private static let ownTrafficRefusal = JSONReply.error("a request stubd sent itself (a webhook or a forwarded miss) may not use the admin API",
                                                            status: 403, problems: ["point the webhook or the upstream at a stub route, not at \(AdminContract.prefix)/"])
}
