import CLibevent
import Dispatch
import StubdSystem
import CLibeventTLS
import CStubdTLS
import StubdHTTP
import Foundation

/// One request to an upstream server on a worker's event loop: its own evhttp connection (async
/// DNS through the worker's evdns base), a timeout, and one callback with the answer, on the
/// loop's thread. The connection is freed after the callback, from a zero-delay event (libevent
/// forbids freeing a connection inside its own request callback).
///
/// The body is taken piece by piece as it arrives (libevent's chunk callback). With a relay
/// policy, an answer whose body is long or of unknown length is sent on to `client` as it comes,
/// through a `ReplyStream`: head when the upstream's head arrives, each piece when it arrives,
/// the end with the last. The stream is paced: while more than `pauseAbove` bytes wait for a
/// slow client, reading from the upstream stops (its socket fills and TCP holds the upstream
/// back) until the client has taken them, so a relayed download holds at most about a megabyte
/// however large it is. A client that leaves ends the upstream call.
final class UpstreamCall {
    private let completion: (UpstreamResponse) -> Void
    private var connection: OpaquePointer?
    private unowned let worker: Worker
    private var retained: Unmanaged<UpstreamCall>?
    /// The TLS bufferevent of an HTTPS call, asked why a handshake failed.
    fileprivate var tlsBufferevent: OpaquePointer?
    /// Where a relayed answer goes: an HTTP/1.1 request (`StreamWriter` writes it), or the HTTP/2
    /// stream awaiting the completion of a reply handle's token (`HTTP2Connection.relay`).
    enum RelayTarget {
        case http1(OpaquePointer)
        case http2(token: UInt64)
    }

    /// The client's request, answered directly when relaying; nil for a request of stubd's own
    /// (a webhook), which is never relayed.
    private let client: RelayTarget?
    private let relay: UpstreamRelay?
    private let isHead: Bool
    private var status = 0
    private var headers: [NameValue] = []
    private var body: [UInt8] = []
    /// When each kept piece arrived, from the head (a relayed stream's timing, for recording).
    private var arrivals: [StreamArrival] = []
    private var headAt: UInt64 = 0
    /// False once a relayed body outgrew the keep limit (the bytes kept so far are dropped).
    private var keeping = true
    /// The client's reply while relaying.
    private var stream: ReplyStream?
    /// Reading from the upstream is stopped until the client catches up.
    private var paused = false
    /// The completion has run (a client that left ends the call before the upstream does).
    private var finished = false
    /// Bytes waiting for the client above which the upstream is not read.
    static let pauseAbove = 256 * 1024

    private init(worker: Worker, client: RelayTarget?, request: UpstreamRequest, completion: @escaping (UpstreamResponse) -> Void) {
        self.worker = worker
        self.client = client
        self.relay = client == nil ? nil : request.relay
        self.isHead = request.method == "HEAD"
        self.completion = completion
    }

    /// Starts `request` for the client's request `client` (nil: for stubd itself); `completion`
    /// runs once, on the loop.
    static func start(_ request: UpstreamRequest, for client: RelayTarget?, on worker: Worker, completion: @escaping (UpstreamResponse) -> Void) {
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
                connection = evhttp_connection_base_bufferevent_new(worker.base, worker.dns, bev, request.address ?? request.host, UInt16(clamping: request.port))
            }
        } else {
            connection = evhttp_connection_base_new(worker.base, worker.dns, request.address ?? request.host, UInt16(clamping: request.port))
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
        worker.inFlight.hold(call)
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

    /// Why the upstream's answer is not relayed although it came (its framing cannot be trusted).
    private var refusal: String?

    /// The upstream's status line and headers arrived: read them, and start relaying when the
    /// policy says so (not for HEAD, nor for statuses without a body). False refuses the answer:
    /// two different `Content-Length` values (RFC 9112 §6.3: an unrecoverable framing error; a
    /// proxy must not relay it), and the call ends with a 502 saying so.
    fileprivate func head(_ response: OpaquePointer) -> Bool {
        status = Int(evhttp_request_get_response_code(response))
        var node = evhttp_request_get_input_headers(response)?.pointee.tqh_first
        while let header = node {
            if let key = header.pointee.key, let value = header.pointee.value {
                headers.append(NameValue(String(cString: key), String(cString: value)))
            }
            node = header.pointee.next.tqe_next
        }
        let lengths = Set(headers.filter { $0.name.equalsIgnoringCase("Content-Length") }
            .flatMap { $0.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
        if lengths.count > 1 {
            refusal = "the upstream's answer has two different Content-Length values (\(lengths.sorted().joined(separator: ", "))); RFC 9112 §6.3 forbids relaying it"
            return false
        }
        headAt = DispatchTime.now().uptimeNanoseconds
        guard let relay, let client, !isHead, status >= 200, status != 204, status != 304 else { return true }
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { CheckedNumber.decimalDigits($0.value.trimmingCharacters(in: .whitespaces)) }
        if let length, length <= relay.above { return true }
        // The stream's callbacks run on this loop (the writer's), where the call lives; the
        // stream may outlive the call (its last pieces go after the upstream has finished).
        let call = LoopBound(self)
        let stream = ReplyStream(status: status, headers: relay.headers(status, headers) + (length.map { [NameValue("Content-Length", String($0))] } ?? []),
                                 bufferLimit: 4 * Self.pauseAbove,
                                 onEnd: { ending in call.value?.relayEnded(ending) },
                                 onDrained: { call.value?.resume() })
        self.stream = stream
        switch client {
        case .http1(let req):
            StreamWriter.start(stream, extraHeaders: [], headOnly: false, on: req, worker: worker)
        case .http2(let token):
            // The stream already went (its client reset it): the answer is read whole, and dropped.
            if !worker.relay(stream, token: token) { self.stream = nil }
        }
        return true
    }

    /// A piece of the body arrived (libevent drains the buffer after this returns).
    fileprivate func piece(_ response: OpaquePointer) {
        guard let input = evhttp_request_get_input_buffer(response) else { return }
        let length = evbuffer_get_length(input)
        guard length > 0 else { return }
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            count = max(0, evbuffer_copyout(input, buffer.baseAddress, length))
        }
        if keeping {
            if stream != nil, let relay, body.count + bytes.count > relay.keepLimit {
                keeping = false
                body = []
                arrivals = []
            } else {
                body += bytes
                if stream != nil {
                    arrivals.append(StreamArrival(seconds: Double(DispatchTime.now().uptimeNanoseconds - headAt) / 1e9, end: body.count))
                }
            }
        }
        guard let stream, stream.ending == nil else { return }
        stream.write(bytes)
        if stream.queuedBytes > Self.pauseAbove { pause() }
    }

    /// Stops reading the upstream's socket (its data waits in the kernel, then in the upstream).
    private func pause() {
        guard !paused, let bev = upstreamBufferevent else { return }
        paused = true
        bufferevent_disable(bev, Int16(EV_READ))
    }

    /// The client has taken what was relayed so far: read the upstream again.
    fileprivate func resume() {
        guard paused, !finished, let bev = upstreamBufferevent else { return }
        paused = false
        bufferevent_enable(bev, Int16(EV_READ))
    }

    private var upstreamBufferevent: OpaquePointer? {
        connection.flatMap(evhttp_connection_get_bufferevent)
    }

    /// The client's reply ended before the upstream's: a client that left or could not keep up
    /// ends the call (nothing more is read); at shutdown `abandon` does.
    fileprivate func relayEnded(_ ending: ReplyStream.Ending) {
        guard !finished, ending == .clientLeft || ending == .slowReader else { return }
        if let bev = upstreamBufferevent { bufferevent_disable(bev, Int16(EV_READ | EV_WRITE)) }
        finish(.relayed(status: status, headers: headers, body: nil, arrivals: []))
    }

    fileprivate func done(_ response: OpaquePointer?) {
        guard !finished else { return }
        if let refusal { return finish(.failed(refusal)) }
        if let stream {
            // The client has the head and is taking the pieces: the stream ends its reply once
            // the last piece has gone.
            let whole = response != nil && evhttp_request_get_response_code(response) > 0 && keeping && stream.ending == nil
            stream.finish()
            finish(.relayed(status: status, headers: headers, body: whole ? body : nil, arrivals: whole ? arrivals : []))
            return
        }
        guard let response, evhttp_request_get_response_code(response) > 0 else {
            finish(.failed(reason(response)))
            return
        }
        if headers.isEmpty && status == 0, !head(response) { return finish(.failed(refusal ?? "an unreadable answer")) }
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
    func serverStopped() {
        if let connection { evhttp_connection_free(connection) }
        connection = nil
        retained?.release()
        retained = nil
    }

    private func finish(_ response: UpstreamResponse) {
        guard !finished else { return }
        finished = true
        worker.inFlight.letGo(self)
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

/// A weak reference used only on its loop's thread, carried by a closure that must be `Sendable`.
private final class LoopBound<Value: AnyObject>: @unchecked Sendable {
    weak var value: Value?
    init(_ value: Value) { self.value = value }
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
    // -1 makes libevent fail the request (the done callback then says why, from `refusal`).
    return Unmanaged<UpstreamCall>.fromOpaque(arg).takeUnretainedValue().head(response) ? 0 : -1
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
