import AdminContract
import Foundation

extension StubdSession {
    /// A forward-proxy port of this session's own (stubd serving with `--proxy-port`): point a
    /// device's or browser's proxy setting at `proxy` — the iOS Simulator takes the Mac's, which
    /// has no place for a session — and every request it sends belongs to this session, no
    /// credentials needed. The port closes when the session ends.
    public func proxyPort() async throws -> ProxyPort {
        try await admin.call(AdminContract.openProxyPort)
    }
}
