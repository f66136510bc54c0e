import CLibevent
import StubModel

/// One request to an upstream server on a worker's event loop: its own evhttp connection (async
/// DNS through the worker's evdns base), a timeout, and one callback with the answer, on the
/// loop's thread. The connection is freed after the callback, from a zero-delay event (libevent
/// forbids freeing a connection inside its own request callback).
final class UpstreamCall {
    private let completion: (UpstreamResponse) -> Void
    private var connection: OpaquePointer?
    private unowned let worker: Worker
    private var retained: Unmanaged<UpstreamCall>?

    private init(worker: Worker, completion: @escaping (UpstreamResponse) -> Void) {
        self.worker = worker
        self.completion = completion
    }

    /// Starts `request`; `completion` runs once, on the loop.
    static func start(_ request: UpstreamRequest, on worker: Worker, completion: @escaping (UpstreamResponse) -> Void) {
        let call = UpstreamCall(worker: worker, completion: completion)
        guard let method = HTTPMethods.command(named: request.method) else {
            completion(.failed("method \(request.method) cannot be sent upstream"))
            return
        }
        guard let connection = evhttp_connection_base_new(worker.base, worker.dns, request.host, UInt16(clamping: request.port)) else {
            completion(.failed("cannot open a connection to \(request.host):\(request.port)"))
            return
        }
        call.connection = connection
        var timeout = timeval(seconds: request.timeoutSeconds)
        evhttp_connection_set_timeout_tv(connection, &timeout)
        evhttp_connection_set_retries(connection, 0)
        let retained = Unmanaged.passRetained(call)
        call.retained = retained
        guard let outgoing = evhttp_request_new(onUpstreamDone, retained.toOpaque()) else {
            call.finish(.failed("cannot create the upstream request"))
            return
        }
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

    fileprivate func done(_ response: OpaquePointer?) {
        guard let response, evhttp_request_get_response_code(response) > 0 else {
            finish(.failed(reason(response)))
            return
        }
        var headers: [NameValue] = []
        var node = evhttp_request_get_input_headers(response)?.pointee.tqh_first
        while let header = node {
            if let key = header.pointee.key, let value = header.pointee.value {
                headers.append(NameValue(String(cString: key), String(cString: value)))
            }
            node = header.pointee.next.tqe_next
        }
        var body: [UInt8] = []
        if let input = evhttp_request_get_input_buffer(response) {
            let length = evbuffer_get_length(input)
            if length > 0 {
                body = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
                    count = max(0, evbuffer_copyout(input, buffer.baseAddress, length))
                }
            }
        }
        finish(.answered(status: Int(evhttp_request_get_response_code(response)), headers: headers, body: body))
    }

    private func reason(_ response: OpaquePointer?) -> String {
        guard let response else { return "no answer (connection refused, reset or timed out)" }
        switch evhttp_request_get_response_code(response) {
        case 0: return "no answer (connection refused, reset, unresolvable host or timed out)"
        default: return "an unreadable answer"
        }
    }

    private func finish(_ response: UpstreamResponse) {
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

private func onFreeConnection(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let box = Unmanaged<ConnectionBox>.fromOpaque(arg).takeRetainedValue()
    evhttp_connection_free(box.connection)
}
