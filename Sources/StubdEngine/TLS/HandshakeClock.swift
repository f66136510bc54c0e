import CLibeventTLS
import Dispatch

/// When each HTTPS connection's handshake finished, kept in its OpenSSL session.
///
/// A connection's first request is placed by how long the connection sat ready before it
/// (`ConnectionUse.idleBeforeFirstRequest`): a client sends at once on a socket it opened for
/// the request, later on one it opened ahead of need. Over HTTPS, counting from the accept also
/// counted the handshake — about 55 ms from OkHttp on the JVM, past the 50 ms bound, so its
/// fresh connection read as preconnected and a `[500, reset, ok]` sequence reached it as
/// 500 → error → error. Counted from the handshake's end instead.
enum HandshakeClock {
    /// The ex-data slot of every `SSL` that holds the time (OpenSSL hands out one per process).
    static let slot: Int32 = CRYPTO_get_ex_new_index(CRYPTO_EX_INDEX_SSL, 0, nil, nil, nil, nil)

    /// Makes every session of `context` note when its handshake finishes.
    static func install(on context: OpaquePointer) {
        _ = slot
        SSL_CTX_set_info_callback(context, noteHandshakeDone)
    }

    /// When `ssl`'s handshake finished (monotonic ns, `DispatchTime`), or 0 before it has.
    static func finishedAt(_ ssl: OpaquePointer) -> UInt64 {
        UInt64(UInt(bitPattern: SSL_get_ex_data(ssl, slot)))
    }
}

/// OpenSSL's info callback: on the first handshake-done, the time goes in the session's slot
/// (the number itself, not a pointer to it: nothing to free). A later handshake-done (a TLS 1.3
/// server's session tickets) leaves the first time.
private func noteHandshakeDone(_ ssl: OpaquePointer?, _ type: Int32, _ value: Int32) {
    guard type & SSL_CB_HANDSHAKE_DONE != 0, let ssl, SSL_get_ex_data(ssl, HandshakeClock.slot) == nil else { return }
    _ = SSL_set_ex_data(ssl, HandshakeClock.slot, UnsafeMutableRawPointer(bitPattern: UInt(DispatchTime.now().uptimeNanoseconds)))
}
