import AdminContract
import Dispatch
package import StubModel
package import StubdEngine
import StubdState
import StubdSystem
import Synchronization

/// A session's own forward-proxy ports (`POST`, `GET /__stubd/proxy/ports`, `DELETE …/{port}`):
/// every request through one belongs to that session, with no proxy credentials — what an iOS
/// Simulator (the Mac's system proxy, where no session can be written), Chromium (which refuses
/// credentials in `--proxy-server`) or a phone whose proxy setting takes a host and port only can
/// use. A port answers on the proxy's address (`--proxy-host`) and asks for its password like the
/// proxy port does; ending the session (`POST /__stubd/reset` with its header) closes its ports.
/// Opening waits for every loop to accept from the new port, so it runs off the loops.
package final class ProxyPortsAdmin: SessionState {
    private let engine = Mutex<(any SessionProxyPorts)?>(nil)
    /// The host the URLs name: the proxy's address, this machine's first LAN address for `0.0.0.0`.
    private let host: String?
    private static let queue = DispatchQueue(label: "stubd.proxy-ports")

    /// Ports for a proxy listening on `proxyHost` (nil: stubd serves no proxy, and each call says so).
    package init(proxyHost: String?) {
        host = proxyHost.map { host in
            let shown = ["0.0.0.0", "::"].contains(host) ? (System.nonLoopbackIPv4Addresses().first ?? "127.0.0.1") : host
            return shown.contains(":") ? "[\(shown)]" : shown
        }
    }

    /// The engine's ports, once it serves.
    package func attach(_ ports: any SessionProxyPorts) {
        engine.withLock { $0 = ports }
    }

    /// Its three endpoints, beside the standard ones (`AdminService`'s `extra`).
    package var endpoints: [AdminEndpoint] {
        [
            AdminEndpoint(AdminContract.openProxyPort, later: { [self] call, _, answer in
                Self.queue.async { answer(Result { () throws(AdminRefusal) in try self.open(session: call.session) }) }
            }),
            AdminEndpoint(AdminContract.proxyPorts) { [self] call, _ in list(session: call.session) },
            AdminEndpoint(AdminContract.closeProxyPort, later: { [self] call, _, answer in
                Self.queue.async { answer(Result { () throws(AdminRefusal) in try self.close(call.parameters[0], session: call.session) }) }
            }),
        ]
    }

    private func open(session: SessionID?) throws(AdminRefusal) -> ProxyPort {
        guard let session else {
            throw AdminRefusal("a proxy port belongs to a session", problems: ["send X-Stubd-Session: ID with the call (the kits' sessions do)"])
        }
        guard let engine = engine.withLock({ $0 }), let host else {
            throw AdminRefusal("stubd serves no forward proxy", status: 409, problems: ["start it with --proxy-port PORT"])
        }
        do throws(EngineError) {
            let port = try engine.openProxyPort(session: session.rawValue)
            return ProxyPort(port: port, session: session.rawValue, proxy: "http://\(host):\(port)")
        } catch {
            throw AdminRefusal(error.description, status: 409)
        }
    }

    private func list(session: SessionID?) -> ProxyPortList {
        let open = engine.withLock { $0 }?.sessionProxyPorts ?? []
        return ProxyPortList(open.filter { session == nil || $0.session == session?.rawValue }.map { entry in
            ProxyPort(port: entry.port, session: entry.session, proxy: "http://\(host ?? "127.0.0.1"):\(entry.port)")
        })
    }

    private func close(_ text: String, session: SessionID?) throws(AdminRefusal) -> ClosedProxyPort {
        let engine = engine.withLock { $0 }
        guard let port = CheckedNumber.decimalDigits(text), let entry = engine?.sessionProxyPorts.first(where: { $0.port == port }),
              session == nil || entry.session == session?.rawValue else {
            throw AdminRefusal("no proxy port \(text) in \(session.map { "session \($0.rawValue)" } ?? "any session")", status: 404,
                               problems: ["GET /__stubd/proxy/ports lists the session's ports"])
        }
        engine?.closeProxyPort(port)
        return ClosedProxyPort(port)
    }

    /// A session's end closes its ports (every session port with none named).
    package func reset(session: SessionID?) {
        guard let engine = engine.withLock({ $0 }) else { return }
        let ports = engine.sessionProxyPorts.filter { session == nil || $0.session == session?.rawValue }.map(\.port)
        guard !ports.isEmpty else { return }
        // Off the caller's thread (a reset may come from a loop, which the close waits for).
        Self.queue.async { for port in ports { engine.closeProxyPort(port) } }
    }
}
