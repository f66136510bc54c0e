import CNghttp2
public import StubdHTTP

/// One HTTP/2 connection's protocol state, server side, as bytes in and bytes out: nghttp2's
/// session (framing, HPACK, flow control, stream states, SETTINGS/PING answers) with the requests
/// gathered per stream and the answers submitted per stream. No socket, no loop: the engine feeds
/// it what the client sent (`receive`) and writes what it produces (`produce`), which is how the
/// tests drive it in memory and `make fuzz` feeds it any bytes.
///
/// Bounds (`HTTP2Limits`): streams open at once, header list bytes, body bytes per request and
/// per connection (flow control holds a client back instead of memory growing), resets per
/// second, CONTINUATION frames per header block; nghttp2 itself bounds SETTINGS entries and the
/// ACKs it owes (a SETTINGS or PING flood ends the connection). Not thread-safe: one loop owns it.
public final class HTTP2Session {
    private var session: OpaquePointer?
    private let limits: HTTP2Limits
    /// Requests whose END_STREAM has not come yet.
    private var gathering: [Int32: HTTP2Request] = [:]
    /// Streams begun and not yet closed (nghttp2 keeps closed streams a while for priorities, so
    /// finding one there does not say it is open).
    private var live: Set<Int32> = []
    /// Answers whose body nghttp2 is still sending, by stream.
    private var sending: [Int32: OutgoingBody] = [:]
    /// Request body bytes held now, all streams together, and the bytes received but not yet
    /// acknowledged to the client's flow control because of it, by stream.
    private var buffered = 0
    private var unconsumed: [Int32: Int] = [:]
    /// Called with each whole request (END_STREAM received), in arrival order.
    public var onRequest: ((HTTP2Request) -> Void)?
    /// Called when a stream ends for any reason (answered, reset by either side, connection
    /// ended), with the error code (0: closed normally).
    public var onStreamClosed: ((Int32, UInt32) -> Void)?
    /// Why the connection failed (nghttp2's words), once `receive` returned false.
    public private(set) var failure: String?

    /// A server session that has queued its SETTINGS (call `produce` to send them).
    public init(limits: HTTP2Limits) {
        self.limits = limits
        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, user in
            guard let frame, let user else { return 0 }
            return HTTP2Session.of(user).beganHeaders(frame.pointee)
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) { _, frame, name, nameLength, value, valueLength, _, user in
            guard let frame, let user, let name, let value else { return 0 }
            return HTTP2Session.of(user).header(frame.pointee, UnsafeBufferPointer(start: name, count: nameLength),
                                                UnsafeBufferPointer(start: value, count: valueLength))
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, stream, data, length, user in
            guard let user, let data else { return 0 }
            return HTTP2Session.of(user).data(stream: stream, UnsafeBufferPointer(start: data, count: length))
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
            guard let frame, let user else { return 0 }
            return HTTP2Session.of(user).received(frame.pointee)
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, stream, code, user in
            guard let user else { return 0 }
            HTTP2Session.of(user).closed(stream: stream, code: code)
            return 0
        }
        var option: OpaquePointer?
        nghttp2_option_new(&option)
        defer { nghttp2_option_del(option) }
        // Window updates are sent as request bodies are taken away (`release`), not as they arrive.
        nghttp2_option_set_no_auto_window_update(option, 1)
        nghttp2_option_set_stream_reset_rate_limit(option, limits.resetBurst, limits.resetsPerSecond)
        nghttp2_option_set_max_continuations(option, limits.maxContinuations)
        var created: OpaquePointer?
        nghttp2_session_server_new2(&created, callbacks, Unmanaged.passUnretained(self).toOpaque(), option)
        session = created
        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: limits.maxConcurrentStreams),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), value: UInt32(clamping: limits.maxHeaderListBytes)),
        ]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
    }

    deinit {
        // Whatever nghttp2 does as it frees its streams reaches no owner that may be going too.
        onRequest = nil
        onStreamClosed = nil
        nghttp2_session_del(session)
    }

    private static func of(_ user: UnsafeMutableRawPointer) -> HTTP2Session {
        Unmanaged<HTTP2Session>.fromOpaque(user).takeUnretainedValue()
    }

    // MARK: - Bytes in, bytes out

    /// Reads what the client sent (the connection preface first, as it came); false when the
    /// connection failed beyond answering (`failure` says why: no preface, out of memory). A
    /// protocol error of the client's is answered by nghttp2 itself with GOAWAY, which `produce`
    /// gives; either way the connection ends once `isFinished` says so.
    @discardableResult
    public func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return failure == nil }
        let read = nghttp2_session_mem_recv(session, base, bytes.count)
        if read < 0 {
            failure = String(cString: nghttp2_strerror(Int32(truncatingIfNeeded: read)))
            return false
        }
        return true
    }

    /// The bytes to send next, at most about `limit` of them (nil when there are none): frames
    /// nghttp2 has queued, body data as far as the client's flow-control windows allow.
    public func produce(limit: Int = 256 * 1024) -> [UInt8]? {
        var out: [UInt8] = []
        while out.count < limit {
            var chunk: UnsafePointer<UInt8>?
            let length = nghttp2_session_mem_send(session, &chunk)
            if length < 0 {
                failure = failure ?? String(cString: nghttp2_strerror(Int32(truncatingIfNeeded: length)))
                break
            }
            guard length > 0, let chunk else { break }
            out.append(contentsOf: UnsafeBufferPointer(start: chunk, count: length))
        }
        return out.isEmpty ? nil : out
    }

    /// Whether the connection has nothing left to read or write (both sides said GOAWAY, or it
    /// failed): the engine closes it once its output is written.
    public var isFinished: Bool {
        failure != nil || (nghttp2_session_want_read(session) == 0 && nghttp2_session_want_write(session) == 0)
    }

    /// Goes on from an HTTP/1.1 request that asked for h2c (`HTTP2Upgrade`): `settings`, its
    /// decoded `HTTP2-Settings`, count as the client's first SETTINGS, and stream 1 is that
    /// request's, half-closed by the client, to be answered with `respond` and the rest as any
    /// stream is. Call before anything is received; the client's preface comes next. False when
    /// nghttp2 refuses the payload (then nothing is changed and the 101 must not be sent).
    public func upgrade(settings: [UInt8], headRequest: Bool) -> Bool {
        let result = settings.withUnsafeBufferPointer { nghttp2_session_upgrade2(session, $0.baseAddress, $0.count, headRequest ? 1 : 0, nil) }
        guard result == 0 else { return false }
        live.insert(1)
        return true
    }

    // MARK: - Answers

    /// Answers `stream` with `status`, `headers` (lower-cased; connection-specific fields, which
    /// HTTP/2 forbids, left out), `body` (nil: no DATA, as for HEAD or a bodiless status) and
    /// `trailers` (a HEADERS frame after the body that ends the stream). False when the stream is
    /// gone (reset by the client, or the connection ended).
    @discardableResult
    public func respond(stream: Int32, status: Int, headers: [NameValue], body: [UInt8]?, trailers: [NameValue] = []) -> Bool {
        guard live.contains(stream) else { return false }
        // Trailers are sent from the body's source once it ends, so a reply without a body still
        // gets one (nghttp2 then sends the trailers right after the head, no empty DATA).
        guard trailers.isEmpty else {
            let outgoing = OutgoingBody(bytes: body ?? [])
            outgoing.trailers = trailers
            return submit(stream: stream, status: status, headers: headers, body: outgoing)
        }
        return submit(stream: stream, status: status, headers: headers, body: body.flatMap { $0.isEmpty ? nil : OutgoingBody(bytes: $0) })
    }

    /// Submits the head of `stream`'s answer and, with `body`, the source nghttp2 reads its DATA
    /// from (none: END_STREAM on the HEADERS).
    private func submit(stream: Int32, status: Int, headers: [NameValue], body: OutgoingBody?) -> Bool {
        if let body { sending[stream] = body }
        let submitted: Int32 = Self.withFields(Self.fields(status: status, headers)) { nva, count in
            guard body != nil else { return nghttp2_submit_response(session, stream, nva, count, nil) }
            var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil), read_callback: { _, stream, buffer, length, flags, _, user in
                guard let user, let buffer, let flags else { return Int(cngh2_err_callback_failure()) }
                return HTTP2Session.of(user).read(stream: stream, into: buffer, length: length, flags: flags)
            })
            return nghttp2_submit_response(session, stream, nva, count, &provider)
        }
        if submitted != 0 { sending[stream] = nil }
        return submitted == 0
    }

    /// Answers `stream` with a head only, then fails it: HEADERS without END_STREAM, then
    /// RST_STREAM INTERNAL_ERROR in place of the body (a fault that sends a head: the client has a
    /// status, then the stream breaks). False when the stream is gone.
    @discardableResult
    public func respondThenFail(stream: Int32, status: Int, headers: [NameValue]) -> Bool {
        guard live.contains(stream) else { return false }
        return Self.withFields(Self.fields(status: status, headers)) { nva, count in
            // A body source that fails when first asked: nghttp2 then resets the stream with
            // INTERNAL_ERROR, right after the HEADERS it has sent.
            var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil), read_callback: { _, _, _, _, _, _, _ in
                Int(cngh2_err_temporal_callback_failure())
            })
            return nghttp2_submit_response(session, stream, nva, count, &provider)
        } == 0
    }

    /// Answers `stream` with a head now and a body written later (`write`, then `finish` or
    /// `failAfterWritten`): a timed stream, a dribbled body. False when the stream is gone.
    @discardableResult
    public func respondOpen(stream: Int32, status: Int, headers: [NameValue]) -> Bool {
        guard live.contains(stream) else { return false }
        let body = OutgoingBody(bytes: [])
        body.open = true
        return submit(stream: stream, status: status, headers: headers, body: body)
    }

    /// Adds `bytes` to an open body of `stream` (`respondOpen`); false when the stream is gone.
    @discardableResult
    public func write(stream: Int32, _ bytes: [UInt8]) -> Bool {
        guard let body = sending[stream], body.open else { return false }
        body.append(bytes)
        nghttp2_session_resume_data(session, stream)
        return true
    }

    /// Ends an open body of `stream` (END_STREAM once what was written has gone).
    public func finish(stream: Int32) {
        guard let body = sending[stream], body.open else { return }
        body.open = false
        nghttp2_session_resume_data(session, stream)
    }

    /// Fails an open body of `stream` once what was written has gone: RST_STREAM INTERNAL_ERROR
    /// in place of its end (a stream cut short, reset or stalled past its hold).
    public func failAfterWritten(stream: Int32) {
        guard let body = sending[stream], body.open else { return }
        body.open = false
        body.failAtEnd = true
        nghttp2_session_resume_data(session, stream)
    }

    /// Bytes written to `stream`'s body that have not gone yet (the client's flow control holds
    /// them): what a slow reader has left unread.
    public func unsentBytes(of stream: Int32) -> Int {
        sending[stream].map { $0.bytes.count - $0.offset } ?? 0
    }

    /// Resets `stream` with `code` (RST_STREAM), dropping whatever of its answer was not sent.
    public func reset(stream: Int32, code: HTTP2ErrorCode) {
        sending[stream] = nil
        nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream, code.rawValue)
    }

    /// Ends the connection with GOAWAY `code` and `debug` text, naming the last stream it took:
    /// streams already taken are still answered when `code` is `noError`.
    public func goAway(code: HTTP2ErrorCode, debug: String = "") {
        let text = Array(debug.utf8)
        let last = nghttp2_session_get_last_proc_stream_id(session)
        _ = text.withUnsafeBufferPointer { bytes in
            nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), last, code.rawValue, bytes.baseAddress, bytes.count)
        }
        if code != .noError { nghttp2_session_terminate_session(session, code.rawValue) }
    }

    /// Whether any stream is open.
    public var hasOpenStreams: Bool { !live.isEmpty }

    /// Whether `stream` is open (not yet closed or reset).
    public func isOpen(_ stream: Int32) -> Bool {
        live.contains(stream)
    }

    /// `:status`, then `headers` with their names lower-cased and without the fields HTTP/2
    /// forbids.
    private static func fields(status: Int, _ headers: [NameValue]) -> [NameValue] {
        var fields = [NameValue(":status", String(status))]
        fields.reserveCapacity(headers.count + 1)
        for header in headers where !connectionSpecific(header.name) {
            fields.append(NameValue(header.name.lowercased(), header.value))
        }
        return fields
    }

    /// Header fields HTTP/2 forbids in a message (RFC 9113 §8.2.2).
    static func connectionSpecific(_ name: String) -> Bool {
        ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"].contains { name.equalsIgnoringCase($0) }
    }

    /// Calls `body` with `fields` as nghttp2 name-value pairs pointing into one buffer (nghttp2
    /// copies them while submitting).
    private static func withFields<T>(_ fields: [NameValue], _ body: (UnsafePointer<nghttp2_nv>, Int) -> T) -> T {
        var bytes: [UInt8] = []
        var spans: [(name: Range<Int>, value: Range<Int>)] = []
        for field in fields {
            let nameStart = bytes.count
            bytes.append(contentsOf: field.name.utf8)
            let valueStart = bytes.count
            bytes.append(contentsOf: field.value.utf8)
            spans.append((nameStart..<valueStart, valueStart..<bytes.count))
        }
        if bytes.isEmpty { bytes.append(0) }
        return bytes.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            let nva = spans.map { span in
                nghttp2_nv(name: base + span.name.lowerBound, value: base + span.value.lowerBound, namelen: span.name.count,
                           valuelen: span.value.count, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
            }
            return nva.withUnsafeBufferPointer { body($0.baseAddress!, $0.count) }
        }
    }

    // MARK: - nghttp2's callbacks

    private func beganHeaders(_ frame: nghttp2_frame) -> Int32 {
        guard frame.hd.type == UInt8(NGHTTP2_HEADERS.rawValue), frame.headers.cat == NGHTTP2_HCAT_REQUEST else { return 0 }
        gathering[frame.hd.stream_id] = HTTP2Request(stream: frame.hd.stream_id)
        live.insert(frame.hd.stream_id)
        return 0
    }

    private func header(_ frame: nghttp2_frame, _ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Int32 {
        let stream = frame.hd.stream_id
        guard var request = gathering[stream] else { return 0 }
        request.headBytes += name.count + value.count
        if request.headBytes > limits.maxHeaderListBytes {
            request.overLimit = .headerList
        } else if request.overLimit == nil {
            let key = String(decoding: name, as: UTF8.self), text = String(decoding: value, as: UTF8.self)
            switch key {
            case ":method": request.method = text
            case ":scheme": request.scheme = text
            case ":authority": request.authority = text
            case ":path": request.path = text
            // Trailers and any other pseudo-header are not part of the request record.
            case _ where key.hasPrefix(":"): break
            default: request.headers.append(NameValue(key, text))
            }
        }
        gathering[stream] = request
        return 0
    }

    private func data(stream: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        guard var request = gathering[stream] else {
            consume(stream: stream, bytes.count)
            return 0
        }
        if request.overLimit == nil, request.body.count + bytes.count > limits.maxBodyBytes {
            // Over the limit: what it held is let go, the rest is read and dropped.
            buffered -= request.body.count
            request.body = []
            request.overLimit = .body
        }
        if request.overLimit != nil {
            gathering[stream] = request
            consume(stream: stream, bytes.count)
            return 0
        }
        request.body.append(contentsOf: bytes)
        gathering[stream] = request
        buffered += bytes.count
        if buffered <= limits.maxBufferedBodyBytes {
            consume(stream: stream, bytes.count)
        } else {
            unconsumed[stream, default: 0] += bytes.count
        }
        return 0
    }

    private func received(_ frame: nghttp2_frame) -> Int32 {
        let type = frame.hd.type
        guard type == UInt8(NGHTTP2_HEADERS.rawValue) || type == UInt8(NGHTTP2_DATA.rawValue),
              frame.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0,
              let request = gathering.removeValue(forKey: frame.hd.stream_id) else { return 0 }
        release(request)
        onRequest?(request)
        return 0
    }

    private func closed(stream: Int32, code: UInt32) {
        live.remove(stream)
        if let request = gathering.removeValue(forKey: stream) { release(request) }
        unconsumed[stream] = nil
        sending[stream] = nil
        onStreamClosed?(stream, code)
    }

    /// A request's body is no longer held here: its bytes leave the connection's count, and
    /// flow control is opened for what was held back.
    private func release(_ request: HTTP2Request) {
        buffered -= request.overLimit == nil ? request.body.count : 0
        if let held = unconsumed.removeValue(forKey: request.stream) { consume(stream: request.stream, held) }
        while buffered < limits.maxBufferedBodyBytes, let (stream, held) = unconsumed.first {
            unconsumed[stream] = nil
            consume(stream: stream, held)
        }
    }

    /// Tells the client's flow control `count` bytes of `stream` were taken.
    private func consume(stream: Int32, _ count: Int) {
        guard count > 0 else { return }
        if nghttp2_session_consume(session, stream, count) != 0 {
            // The stream is gone: the connection's window still counts the bytes.
            nghttp2_session_consume_connection(session, count)
        }
    }

    private func read(stream: Int32, into buffer: UnsafeMutablePointer<UInt8>, length: Int, flags: UnsafeMutablePointer<UInt32>) -> Int {
        guard let body = sending[stream] else { return Int(cngh2_err_callback_failure()) }
        let count = min(length, body.bytes.count - body.offset)
        if count == 0 {
            // Nothing to send now: wait for more (`write`), fail, or end.
            if body.open { return Int(cngh2_err_deferred()) }
            sending[stream] = nil
            if body.failAtEnd { return Int(cngh2_err_temporal_callback_failure()) }
            ended(body, stream: stream, flags: flags)
            return 0
        }
        body.bytes.withUnsafeBufferPointer { bytes in
            buffer.update(from: bytes.baseAddress! + body.offset, count: count)
        }
        body.offset += count
        if body.offset == body.bytes.count && !body.open && !body.failAtEnd {
            ended(body, stream: stream, flags: flags)
            sending[stream] = nil
        }
        return count
    }

    /// The last of `body`'s DATA: END_STREAM on it, or, with trailers, on the HEADERS that carry
    /// them after it (nghttp2 lets the read callback submit them).
    private func ended(_ body: OutgoingBody, stream: Int32, flags: UnsafeMutablePointer<UInt32>) {
        flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
        guard !body.trailers.isEmpty else { return }
        let fields = body.trailers.filter { !Self.connectionSpecific($0.name) }.map { NameValue($0.name.lowercased(), $0.value) }
        let submitted = Self.withFields(fields) { nva, count in nghttp2_submit_trailer(session, stream, nva, count) }
        if submitted == 0 { flags.pointee |= NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue }
    }
}

/// An answer's body on its way out: nghttp2 asks for it piece by piece as windows open. An open
/// one is still being written (a timed stream): its sent bytes are dropped as it goes.
private final class OutgoingBody {
    private(set) var bytes: [UInt8]
    var offset = 0
    /// More may be written.
    var open = false
    /// Once what was written has gone, the stream is reset instead of ended.
    var failAtEnd = false
    /// Fields sent after the last DATA, on a HEADERS frame that ends the stream.
    var trailers: [NameValue] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func append(_ more: [UInt8]) {
        if offset > 0 && offset >= bytes.count / 2 {
            bytes.removeFirst(offset)
            offset = 0
        }
        bytes += more
    }
}
