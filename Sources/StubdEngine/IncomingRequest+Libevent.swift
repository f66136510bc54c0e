import CLibevent
import StubdHTTP

extension IncomingRequest {
    /// Copies what routing needs out of an evhttp request: method, raw target, headers in order,
    /// and the whole (de-chunked) body. The client's address comes from the connection
    /// (`ConnectionTracker`), which reads it once.
    init(engineRequest req: OpaquePointer) {
        let method = HTTPMethods.name(of: evhttp_request_get_command(req))
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
        var sentRange = false
        var sentUpgrade = false
        var headBytes = target.utf8.count
        node = first
        while let header = node {
            if let key = header.pointee.key, let value = header.pointee.value {
                let pair = NameValue(String(cString: key), String(cString: value))
                headBytes &+= pair.name.utf8.count &+ pair.value.utf8.count
                headers.append(pair)
                // `Range`, noted on the C string: a first-byte test for every other header.
                if key[0] | 0x20 == 0x72, evutil_ascii_strcasecmp(key, "range") == 0 { sentRange = true }
                // `Upgrade` (a WebSocket's), the same way.
                if key[0] | 0x20 == 0x75, evutil_ascii_strcasecmp(key, "upgrade") == 0 { sentUpgrade = true }
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
        noteCopiedHeaders(sentRange: sentRange, sentUpgrade: sentUpgrade, headBytes: headBytes)
    }
}
