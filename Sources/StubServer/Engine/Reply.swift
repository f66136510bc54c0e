import CLibevent
import StubModel

/// Writes a prepared reply through evhttp. evhttp frees the request once the bytes are written.
enum Reply {
    /// Sends status, headers and body. For HEAD, evhttp would write a body without framing
    /// (libevent-notes §1.8), so HEAD gets the GET reply's Content-Length and no body.
    static func send(_ reply: PreparedReply, extraHeaders: [NameValue], on req: OpaquePointer, headOnly: Bool) {
        let headers = evhttp_request_get_output_headers(req)
        for header in reply.headers {
            evhttp_add_header(headers, header.name, header.value)
        }
        for header in extraHeaders {
            evhttp_add_header(headers, header.name, header.value)
        }
        if PreparedReply.statusAllowsBody(reply.status) {
            evhttp_add_header(headers, "Content-Length", reply.contentLength)
        }
        if !headOnly && !reply.body.isEmpty {
            reply.body.withUnsafeBytes { bytes in
                _ = evbuffer_add(evhttp_request_get_output_buffer(req), bytes.baseAddress, bytes.count)
            }
        }
        evhttp_send_reply(req, Int32(reply.status), nil, nil)
    }
}
