import AdminAPI
import StubServer

extension StubHandler {
    /// The handler `StubdServer` builds, for socket-free tests: `admin` answered by the standard
    /// admin service open to loopback callers.
    convenience init(admin: SessionStore, cors: CORSPolicy, redactor: Redactor = Redactor(), feed: ExchangeFeed) {
        self.init(admin: admin, responder: AdminService(state: admin, access: .open), cors: cors, redactor: redactor, feed: feed)
    }
}
