import Foundation
import StubModel
package import StubdEngine
package import StubdTesting

/// The test kit's admin calls handed to a stubd served in memory instead of sent over HTTP: the
/// kit builds each call exactly as it would (method, URL, headers, JSON body), and the in-memory
/// engine answers it.
package struct InMemoryTransport: StubdTransport {
    package let network: InMemoryNetwork

    package init(_ network: InMemoryNetwork) {
        self.network = network
    }

    package func send(_ call: StubdTransportCall) async throws -> (status: Int, body: [UInt8]) {
        let components = URLComponents(url: call.url, resolvingAgainstBaseURL: false)
        let target = (components?.percentEncodedPath ?? "/") + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
        var headers = [NameValue("Host", "\(call.url.host ?? "127.0.0.1"):\(call.url.port ?? 80)")]
        headers += call.headers.map { NameValue($0.name, $0.value) }
        if let body = call.body { headers.append(NameValue("Content-Length", String(body.count))) }
        guard let reply = network.send(IncomingRequest(method: call.method, target: target, headers: headers, body: call.body ?? []),
                                       timeout: call.timeout) else {
            throw URLError(.timedOut)
        }
        return (reply.status ?? 0, reply.body)
    }
}
