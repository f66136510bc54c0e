import CLibevent
import CStubdEvent
import StubdHTTP

/// Writes a prepared reply through evhttp. evhttp frees the request once the bytes are written.
enum Reply {
    /// A TLS record's largest payload: a reply up to this size leaves as one record.
    static let tlsRecordPayload = 16 * 1024

    /// Bodies from this size on are handed to libevent by reference, not copied.
    static let referenceAbove = 32 * 1024

    /// Adds the reply's body to `output`. A large body is lent to libevent (`evbuffer_add_reference`):
    /// the reply is retained until libevent has written the bytes and calls back, so a route's
    /// 1 MiB body is never copied per request. The body is an immutable array of an immutable
    /// reply, so its storage does not move while the reply lives. Small bodies are copied, which
    /// is cheaper than a reference's bookkeeping (and a TLS reply up to one record is joined
    /// into one piece anyway).
    static func addBody(of reply: PreparedReply, to output: OpaquePointer?) {
        reply.body.withUnsafeBytes { bytes in
            if bytes.count >= referenceAbove {
                let owner = Unmanaged.passRetained(reply)
                if evbuffer_add_reference(output, bytes.baseAddress, bytes.count, onBodyWritten, owner.toOpaque()) == 0 { return }
                owner.release()
            }
            _ = evbuffer_add(output, bytes.baseAddress, bytes.count)
        }
    }

    /// Sends status, headers and body. For HEAD, evhttp would write a body without framing
    /// (libevent-notes §1.8), so HEAD gets the GET reply's Content-Length and no body.
    ///
    /// `oneTLSRecord`: evhttp queues the head and the body as two pieces of the connection's
    /// output, and libevent's OpenSSL bufferevent writes each piece as its own TLS record (a
    /// second record per small reply — half nginx's keep-alive rate). A reply that fits one
    /// record is joined into one piece before the loop writes it.
    ///
    /// `date`: the loop's cached `Date` value (`DateHeader`), sent unless the reply names its own;
    /// nil lets evhttp format one.
    static func send(_ reply: PreparedReply, extraHeaders: [NameValue], on req: OpaquePointer, headOnly: Bool, oneTLSRecord: Bool = false,
                     date: ContiguousArray<CChar>? = nil) {
        let output = oneTLSRecord ? evhttp_request_get_connection(req).flatMap(evhttp_connection_get_bufferevent).flatMap(bufferevent_get_output) : nil
        let headers = evhttp_request_get_output_headers(req)
        reply.headerBlock.add(to: headers)
        for header in extraHeaders {
            evhttp_add_header(headers, header.name, header.value)
        }
        if let date, !reply.setsDate {
            _ = date.withUnsafeBufferPointer { evhttp_add_header(headers, "Date", $0.baseAddress) }
        }
        if !reply.trailers.isEmpty, !headOnly, sendWithTrailers(reply, on: req, headers: headers) { return }
        reply.contentLengthBlock.add(to: headers)
        if !headOnly && !reply.body.isEmpty {
            addBody(of: reply, to: evhttp_request_get_output_buffer(req))
        }
        evhttp_send_reply(req, Int32(reply.status), nil, nil)
        // The write itself happens later in the loop; evhttp has queued head and body by now.
        if let output, evbuffer_get_length(output) <= tlsRecordPayload { evbuffer_pullup(output, -1) }
    }
}

extension Reply {
    /// A reply with trailers, to an HTTP/1.1 request: chunked, its fields announced in `Trailer`
    /// and sent after the body (`stubd_send_reply_with_trailers`); false, with nothing sent, for
    /// an HTTP/1.0 request, which gets the reply without them (HTTP/1.0 has no chunks).
    fileprivate static func sendWithTrailers(_ reply: PreparedReply, on req: OpaquePointer, headers: UnsafeMutablePointer<evkeyvalq>?) -> Bool {
        let names = reply.trailers.map(\.name).joined(separator: ", ")
        let section = reply.trailers.map { "\($0.name): \($0.value)\r\n" }.joined()
        evhttp_add_header(headers, "Trailer", names)
        let sent = reply.body.withUnsafeBytes { body in
            stubd_send_reply_with_trailers(req, Int32(reply.status), body.baseAddress, body.count, section)
        }
        if sent == 0 { evhttp_remove_header(headers, "Trailer") }
        return sent != 0
    }
}

/// libevent is done with a body lent by reference: the reply may go.
private func onBodyWritten(_ data: UnsafeRawPointer?, _ length: Int, _ owner: UnsafeMutableRawPointer?) {
    guard let owner else { return }
    Unmanaged<PreparedReply>.fromOpaque(owner).release()
}
