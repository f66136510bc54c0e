import CLibevent
import StubModel

/// Writes a prepared reply through evhttp. evhttp frees the request once the bytes are written.
enum Reply {
    /// A TLS record's largest payload: a reply up to this size leaves as one record.
    static let tlsRecordPayload = 16 * 1024

    /// Sends status, headers and body. For HEAD, evhttp would write a body without framing
    /// (libevent-notes §1.8), so HEAD gets the GET reply's Content-Length and no body.
    ///
    /// `oneTLSRecord`: evhttp queues the head and the body as two pieces of the connection's
    /// output, and libevent's OpenSSL bufferevent writes each piece as its own TLS record (a
    /// second record per small reply — half nginx's keep-alive rate). A reply that fits one
    /// record is joined into one piece before the loop writes it.
    static func send(_ reply: PreparedReply, extraHeaders: [NameValue], on req: OpaquePointer, headOnly: Bool, oneTLSRecord: Bool = false) {
        let output = oneTLSRecord ? evhttp_request_get_connection(req).flatMap(evhttp_connection_get_bufferevent).flatMap(bufferevent_get_output) : nil
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
        // The write itself happens later in the loop; evhttp has queued head and body by now.
        if let output, evbuffer_get_length(output) <= tlsRecordPayload { evbuffer_pullup(output, -1) }
    }
}
