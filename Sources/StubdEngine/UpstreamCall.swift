import CLibevent
import StubdSystem
import CLibeventTLS
import CStubdTLS
import StubModel

/// One request to an upstream server on a worker's event loop: its own evhttp connection (async
/// DNS through the worker's evdns base), a timeout, and one callback with the answer, on the
/// loop's thread. The connection is freed after the callback, from a zero-delay event (libevent
/// forbids freeing a connection inside its own request callback).
///
/// The body is taken piece by piece as it arrives (libevent's chunk callback). With a relay
/// policy, an answer whose body is long or of unknown length is sent on to `client` as it comes:
/// head when the upstream's head arrives, each piece when it arrives, the end with the last.
final class UpstreamCall {
    private let completion: (UpstreamResponse) -> Void
    private var connection: OpaquePointer?
    private unowned let worker: Worker
    private var retained: Unmanaged<UpstreamCall>?
    /// The TLS bufferevent of an HTTPS call, asked why a handshake failed.
    fileprivate var tlsBufferevent: OpaquePointer?
    /// The client's request, answered directly when relaying; nil for a request of stubd's own
    /// (a webhook), which is never relayed.
    private let client: OpaquePointer?
    private let relay: UpstreamRelay?
    private let isHead: Bool
    private var status = 0
    private var headers: [NameValue] = []
    private var body: [UInt8] = []
    /// False once a relayed body outgrew the keep limit (the bytes kept so far are dropped).
    private var keeping = true
    private var relaying = false

    private init(worker: Worker, client: OpaquePointer?, request: UpstreamRequest, completion: @escaping (UpstreamResponse) -> Void) {
        self.worker = worker
        self.client = client
        self.relay = client == nil ? nil : request.relay
        self.isHead = request.method == "HEAD"
        self.completion = completion
    }

    /// Starts `request` for the client's request `client` (nil: for stubd itself); `completion`
    /// runs once, on the loop.
    static func start(_ request: UpstreamRequest, for client: OpaquePointer?, on worker: Worker, completion: @escaping (UpstreamResponse) -> Void) {
        let call = UpstreamCall(worker: worker, client: client, request: request, completion: completion)
        guard let method = HTTPMethods.command(named: request.method) else {
            completion(.failed("method \(request.method) cannot be sent upstream"))
            return
        }
        var connection: OpaquePointer?
        if let tls = request.tls {
            switch worker.tlsContext(for: tls) {
            case .failure(let problem):
                completion(.failed(problem.description))
                return
            case .success(let context):
                guard let ssl = SSL_new(context) else {
                    completion(.failed("TLS: cannot create a session"))
                    return
                }
                stubd_ssl_set_sni(ssl, request.host)
                if tls.verify { SSL_set1_host(ssl, request.host) }
                let options = Int32(BEV_OPT_CLOSE_ON_FREE.rawValue | BEV_OPT_DEFER_CALLBACKS.rawValue)
                guard let bev = bufferevent_openssl_socket_new(worker.base, -1, ssl, BUFFEREVENT_SSL_CONNECTING, options) else {
                    SSL_free(ssl)
                    completion(.failed("TLS: cannot create the connection"))
                    return
                }
                bufferevent_openssl_set_allow_dirty_shutdown(bev, 1)
                call.tlsBufferevent = bev
                connection = evhttp_connection_base_bufferevent_new(worker.base, worker.dns, bev, request.host, UInt16(clamping: request.port))
            }
        } else {
            connection = evhttp_connection_base_new(worker.base, worker.dns, request.host, UInt16(clamping: request.port))
        }
        guard let connection else {
            completion(.failed("cannot open a connection to \(request.host):\(request.port)"))
            return
        }
        call.connection = connection
        var timeout = System.timeValue(seconds: request.timeoutSeconds)
        evhttp_connection_set_timeout_tv(connection, &timeout)
        evhttp_connection_set_retries(connection, 0)
        let retained = Unmanaged.passRetained(call)
        call.retained = retained
        worker.upstreamCalls[ObjectIdentifier(call)] = call
        guard let outgoing = evhttp_request_new(onUpstreamDone, retained.toOpaque()) else {
            call.finish(.failed("cannot create the upstream request"))
            return
        }
        evhttp_request_set_header_cb(outgoing, onUpstreamHead)
        evhttp_request_set_chunked_cb(outgoing, onUpstreamPiece)
        let headers = evhttp_request_get_output_headers(outgoing)
        for header in request.headers { evhttp_add_header(headers, header.name, header.value) }
        if !request.body.isEmpty {
            request.body.withUnsafeBytes { bytes in
                _ = evbuffer_add(evhttp_request_get_output_buffer(outgoing), bytes.baseAddress, bytes.count)
            }
        }
        if evhttp_make_request(connection, outgoing, method, request.target) != 0 {
            // libevent frees `outgoing` itself when making the request fails.
            call.finish(.failed("cannot send the request to \(request.host):\(request.port)"))
        }
    }

    /// The upstream's status line and headers arrived: read them, and start relaying when the
    /// policy says so (not for HEAD, nor for statuses without a body).
    fileprivate func head(_ response: OpaquePointer) {
        status = Int(evhttp_request_get_response_code(response))
        var node = evhttp_request_get_input_headers(response)?.pointee.tqh_first
        while let header = node {
            if let key = header.pointee.key, let value = header.pointee.value {
                headers.append(NameValue(String(cString: key), String(cString: value)))
            }
            node = header.pointee.next.tqe_next
        }
        guard let relay, let client, !isHead, status >= 200, status != 204, status != 304 else { return }
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) }
        if let length, length <= relay.above { return }
        relaying = true
        let output = evhttp_request_get_output_headers(client)
        for header in relay.headers(status, headers) { evhttp_add_header(output, header.name, header.value) }
        if let length { evhttp_add_header(output, "Content-Length", String(length)) }
        evhttp_send_reply_start(client, Int32(status), nil)
    }

    /// A piece of the body arrived (libevent drains the buffer after this returns).
    fileprivate func piece(_ response: OpaquePointer) {
        guard let input = evhttp_request_get_input_buffer(response) else { return }
        let length = evbuffer_get_length(input)
        guard length > 0 else { return }
        if keeping {
            if relaying, let relay, body.count + length > relay.keepLimit {
                keeping = false
                body = []
            } else {
                let start = body.count
                body.append(contentsOf: repeatElement(0, count: length))
                body.withUnsafeMutableBytes { _ = evbuffer_copyout(input, $0.baseAddress! + start, length) }
            }
        }
        if relaying, let client, evhttp_request_get_connection(client) != nil {
            evhttp_send_reply_chunk(client, input)
        }
    }

    fileprivate func done(_ response: OpaquePointer?) {
        if relaying, let client {
            // The client already has the head and the pieces: end its reply (this also frees it
            // if the client left).
            evhttp_send_reply_end(client)
            let whole = response != nil && evhttp_request_get_response_code(response) > 0 && keeping
            finish(.relayed(status: status, headers: headers, body: whole ? body : nil))
            return
        }
        guard let response, evhttp_request_get_response_code(response) > 0 else {
            finish(.failed(reason(response)))
            return
        }
        if headers.isEmpty && status == 0 { head(response) }
        if let input = evhttp_request_get_input_buffer(response), evbuffer_get_length(input) > 0 {
            piece(response)
        }
        finish(.answered(status: Int(evhttp_request_get_response_code(response)), headers: headers, body: body))
    }

    private func reason(_ response: OpaquePointer?) -> String {
        if let tls = tlsReason() { return tls }
        guard let response else { return "no answer (connection refused, reset or timed out)" }
        switch evhttp_request_get_response_code(response) {
        case 0: return "no answer (connection refused, reset, unresolvable host or timed out)"
        default: return "an unreadable answer"
        }
    }

    /// Why the TLS handshake failed, from OpenSSL: the certificate check's verdict, else the
    /// first error on the connection; nil when TLS was not the problem.
    private func tlsReason() -> String? {
        guard let bev = tlsBufferevent, let ssl = bufferevent_openssl_get_ssl(bev) else { return nil }
        let verdict = SSL_get_verify_result(ssl)
        if verdict != X509_V_OK, let text = X509_verify_cert_error_string(verdict) {
            return "TLS: the upstream's certificate was refused (\(String(cString: text)))"
        }
        let code = bufferevent_get_openssl_error(bev)
        guard code != 0 else { return nil }
        return "TLS: \(String(cString: stubd_ssl_error_text(code)))"
    }

    /// At shutdown, for a call that never finished: frees its connection (and with it the
    /// outgoing request, without calling back) and drops the call. The client's request is
    /// freed with the server's.
    func abandon() {
        if let connection { evhttp_connection_free(connection) }
        connection = nil
        retained?.release()
        retained = nil
    }

    private func finish(_ response: UpstreamResponse) {
        worker.upstreamCalls[ObjectIdentifier(self)] = nil
        completion(response)
        if let connection {
            // Freed on the next loop turn, outside libevent's callback for it.
            let box = Unmanaged.passRetained(ConnectionBox(connection))
            event_base_once(worker.base, -1, Int16(EV_TIMEOUT), onFreeConnection, box.toOpaque(), nil)
            self.connection = nil
        }
        retained?.release()
        retained = nil
    }
}

private final class ConnectionBox {
    let connection: OpaquePointer
    init(_ connection: OpaquePointer) { self.connection = connection }
}

private func onUpstreamDone(_ response: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<UpstreamCall>.fromOpaque(arg).takeUnretainedValue().done(response)
}

private func onUpstreamHead(_ response: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let response, let arg else { return 0 }
    Unmanaged<UpstreamCall>.fromOpaque(arg).takeUnretainedValue().head(response)
    return 0
}

private func onUpstreamPiece(_ response: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let response, let arg else { return }
    Unmanaged<UpstreamCall>.fromOpaque(arg).takeUnretainedValue().piece(response)
}

private func onFreeConnection(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let box = Unmanaged<ConnectionBox>.fromOpaque(arg).takeRetainedValue()
    evhttp_connection_free(box.connection)
}
