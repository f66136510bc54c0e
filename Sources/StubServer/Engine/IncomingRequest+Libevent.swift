import CLibevent
import TargetModel

extension IncomingRequest {
    /// Copies what routing needs out of an evhttp request: method, raw target, headers in order,
    /// and the whole (de-chunked) body.
    init(engineRequest req: OpaquePointer) {
        let method = IncomingRequest.methodName(evhttp_request_get_command(req))
        let target = evhttp_request_get_uri(req).map { String(cString: $0) } ?? "/"
        let first = evhttp_request_get_input_headers(req)?.pointee.tqh_first
        var count = 0
        var node = first
        while let header = node {
            count += 1
            node = header.pointee.next.tqe_next
        }
        var headers: [NameValue] = []
        headers.reserveCapacity(count)
        node = first
        while let header = node {
            if let key = header.pointee.key, let value = header.pointee.value {
                headers.append(NameValue(String(cString: key), String(cString: value)))
            }
            node = header.pointee.next.tqe_next
        }
        var body: [UInt8] = []
        if let input = evhttp_request_get_input_buffer(req) {
            let length = evbuffer_get_length(input)
            if length > 0 {
                body = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
                    count = max(0, evbuffer_copyout(input, buffer.baseAddress, length))
                }
            }
        }
        self.init(method: method, target: target, headers: headers, body: body)
    }

    /// libevent 2.1 knows exactly nine methods; anything else is refused with 501 before routing.
    static func methodName(_ command: evhttp_cmd_type) -> String {
        switch command {
        case EVHTTP_REQ_GET: return "GET"
        case EVHTTP_REQ_POST: return "POST"
        case EVHTTP_REQ_HEAD: return "HEAD"
        case EVHTTP_REQ_PUT: return "PUT"
        case EVHTTP_REQ_DELETE: return "DELETE"
        case EVHTTP_REQ_OPTIONS: return "OPTIONS"
        case EVHTTP_REQ_TRACE: return "TRACE"
        case EVHTTP_REQ_CONNECT: return "CONNECT"
        case EVHTTP_REQ_PATCH: return "PATCH"
        default: return "UNKNOWN"
        }
    }
}
