import CLibevent
import StubdSystem

/// Whether a newcomer's client has sent any byte: a callback on its input buffer, removed when it
/// stops being a newcomer (evhttp consumes a head line by line, so a half-sent head leaves the
/// buffer empty — only this says bytes came).
final class NewcomerInput {
    private let bev: OpaquePointer
    private let buffer: OpaquePointer?
    private var entry: OpaquePointer?
    private let bodyLimit: Int
    private let onEvent: (@Sendable (String) -> Void)?
    /// Takes the connection for HTTP/2 when its first bytes are the preface (nil: HTTP/2 is off,
    /// and the preface is answered GOAWAY HTTP_1_1_REQUIRED); true when it took it.
    private let takeForHTTP2: (() -> Bool)?
    private(set) var sent = false
    /// The first bytes were answered here (`FirstBytes`): whatever else comes is dropped before
    /// evhttp reads it, until the client closes or the head deadline ends the connection.
    private var answered = false

    init(_ bev: OpaquePointer, bodyLimit: Int, onEvent: (@Sendable (String) -> Void)?, takeForHTTP2: (() -> Bool)? = nil) {
        self.bev = bev
        self.bodyLimit = bodyLimit
        self.onEvent = onEvent
        self.takeForHTTP2 = takeForHTTP2
        buffer = bufferevent_get_input(bev)
        if let buffer { entry = evbuffer_add_cb(buffer, onNewcomerInput, Unmanaged.passUnretained(self).toOpaque()) }
    }

    /// Bytes were added (before evhttp's read callback sees them): noted, looked at once
    /// (`FirstBytes`), and the callback disabled unless they were answered here.
    fileprivate func added() {
        guard let buffer else { return }
        if answered {
            evbuffer_drain(buffer, evbuffer_get_length(buffer))
            return
        }
        sent = true
        let count = min(evbuffer_get_length(buffer), 8192)
        var first = [UInt8](repeating: 0, count: count)
        _ = first.withUnsafeMutableBytes { evbuffer_copyout(buffer, $0.baseAddress, count) }
        let kind = FirstBytes.classify(first, bodyLimit: bodyLimit)
        guard kind != .ordinary else {
            if let entry { evbuffer_cb_clear_flags(buffer, entry, UInt32(EVBUFFER_CB_ENABLED)) }
            return
        }
        // The preface: HTTP/2 takes the connection (its callbacks replaced before evhttp's read
        // callback runs, so evhttp never reads a byte of it).
        // (Kept alive through the call: the tracker lets go of this object as it takes the connection.)
        if kind == .http2Preface, let takeForHTTP2, withExtendedLifetime(self, { takeForHTTP2() }) { return }
        answered = true
        evbuffer_drain(buffer, evbuffer_get_length(buffer))
        let answer = kind.answer(bodyLimit: bodyLimit)
        let output = bufferevent_get_output(bev)
        _ = answer.withUnsafeBytes { bufferevent_write(bev, $0.baseAddress, $0.count) }
        // Once it is sent, a FIN (the answer says `Connection: close`; a client waiting for its
        // request's end — Java's HttpClient after an Expect — hears it), still reading and
        // dropping what comes until the client closes.
        if let output { outputEntry = evbuffer_add_cb(output, onAnswerOutput, Unmanaged.passUnretained(self).toOpaque()) }
        // evhttp keeps writing off while it waits for a head.
        bufferevent_enable(bev, Int16(EV_WRITE))
        if let line = kind.logLine { onEvent?(line) }
    }

    private var outputEntry: OpaquePointer?

    /// Bytes of the answer left the output buffer: when none are left, the FIN.
    fileprivate func answerOutputChanged() {
        guard let output = bufferevent_get_output(bev), evbuffer_get_length(output) == 0, let outputEntry else { return }
        evbuffer_remove_cb_entry(output, outputEntry)
        self.outputEntry = nil
        let fd = bufferevent_getfd(bev)
        if fd >= 0 { System.shutdownWrites(fd) }
    }

    /// Removes the callbacks (before this object can go away).
    func stopWatching() {
        if let buffer, let entry { evbuffer_remove_cb_entry(buffer, entry) }
        entry = nil
        if let output = bufferevent_get_output(bev), let outputEntry { evbuffer_remove_cb_entry(output, outputEntry) }
        outputEntry = nil
    }
}

private func onAnswerOutput(_ buffer: OpaquePointer?, _ info: UnsafePointer<evbuffer_cb_info>?, _ arg: UnsafeMutableRawPointer?) {
    guard let arg, let info, info.pointee.n_deleted > 0 else { return }
    Unmanaged<NewcomerInput>.fromOpaque(arg).takeUnretainedValue().answerOutputChanged()
}

private func onNewcomerInput(_ buffer: OpaquePointer?, _ info: UnsafePointer<evbuffer_cb_info>?, _ arg: UnsafeMutableRawPointer?) {
    // Only additions (our own drain calls back with n_deleted).
    guard let arg, let info, info.pointee.n_added > 0 else { return }
    Unmanaged<NewcomerInput>.fromOpaque(arg).takeUnretainedValue().added()
}
