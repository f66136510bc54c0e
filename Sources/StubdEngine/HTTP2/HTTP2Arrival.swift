import StubdHTTP
import StubdHTTP2

/// What an HTTP/2 stream's request is as one request record, and what is answered before the
/// handler sees it.
///
/// The record: `:authority` is the request's `Host` (RFC 9113 §8.3.1: what an HTTP/1.1 hop makes
/// of it), placed first when the client sent no `Host` of its own, so routing by host, the admin
/// guard and the journal read HTTP/2 and HTTP/1.1 requests alike; the `cookie` fields a client
/// split are joined with `; ` (§8.2.3); header names stay as HTTP/2 sends them, in lower case
/// (matching reads names case-insensitively).
enum HTTP2Arrival {
    /// The request's header fields as the handler reads them.
    static func headers(of request: HTTP2Request) -> [NameValue] {
        var headers: [NameValue] = []
        headers.reserveCapacity(request.headers.count + 1)
        if !request.authority.isEmpty, !request.headers.contains(where: { $0.name == "host" }) {
            headers.append(NameValue("host", request.authority))
        }
        var cookies: [String] = []
        for header in request.headers {
            if header.name == "cookie" { cookies.append(header.value) } else { headers.append(header) }
        }
        if !cookies.isEmpty { headers.append(NameValue("cookie", cookies.joined(separator: "; "))) }
        return headers
    }

    /// The answer to a request the handler does not see: one over a limit (the rest of it was
    /// read and dropped), a `CONNECT` (a tunnel is the proxy port's, over HTTP/1.1), or a method
    /// HTTP/1.1 requests may not use either.
    static func refusal(for request: HTTP2Request) -> PreparedReply? {
        switch request.overLimit {
        case .headerList?: return ProtocolChecks.reply(431, "the request's header fields are over the server's limit; send fewer or shorter ones")
        case .body?: return ProtocolChecks.reply(413, "the request body is over stubd's limit for one request")
        case nil: break
        }
        if request.method == "CONNECT" {
            return ProtocolChecks.reply(405, "stubd answers CONNECT on its proxy port, over HTTP/1.1 (--proxy-port)")
        }
        guard HTTPMethods.names.contains(request.method) else {
            return ProtocolChecks.reply(501, "the method \(request.method) is not one stubd serves (\(HTTPMethods.names.joined(separator: ", ")))")
        }
        return nil
    }
}
