import CLibeventTLS
import CStubdTLS

/// The OpenSSL server context HTTPS connections are accepted with: TLS 1.2 or later, the
/// certificate chain and key from PEM files, checked to belong together before anything is
/// served. Shared by every loop (an `SSL_CTX` is safe to use from several threads); each loop
/// holds a reference.
final class TLSServerContext: @unchecked Sendable {
    let context: OpaquePointer

    /// `http2`: ALPN offers `h2` before `http/1.1` (`--http2 on`), else `http/1.1` only.
    init(_ settings: HTTPSSettings, http2: Bool) throws(EngineError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw .tls(flag: "HTTPS", problem: "OpenSSL could not create a server context")
        }
        _ = stubd_ssl_ctx_min_tls12(context)
        // No read-ahead (SSL_CTX_set_read_ahead), though it saves a read per request: libevent
        // 2.1's OpenSSL bufferevent does not look at what OpenSSL has buffered when a handshake
        // ends, so a request sent in the same write as the client's Finished waited in OpenSSL's
        // buffer for a socket event that never came (measured: every such request stalled; tested).
        ERR_clear_error()
        guard SSL_CTX_use_certificate_chain_file(context, settings.certificateFile) == 1 else {
            SSL_CTX_free(context)
            throw .tls(flag: "--tls-cert \(settings.certificateFile)",
                       problem: "cannot be used as a PEM certificate chain (\(Self.lastError())); give a readable PEM file, certificate first")
        }
        let mismatch = "does not belong to the certificate in \(settings.certificateFile); give the key the certificate was issued for"
        guard SSL_CTX_use_PrivateKey_file(context, settings.keyFile, SSL_FILETYPE_PEM) == 1 else {
            SSL_CTX_free(context)
            let reason = Self.lastError()
            throw .tls(flag: "--tls-key \(settings.keyFile)",
                       problem: reason.contains("key values mismatch") ? mismatch
                           : "cannot be used as a PEM private key (\(reason)); give the unencrypted PEM key of the certificate")
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            SSL_CTX_free(context)
            throw .tls(flag: "--tls-key \(settings.keyFile)", problem: mismatch)
        }
        stubd_ssl_ctx_set_alpn(context, http2 ? 1 : 0)
        self.context = context
    }

    /// A context made elsewhere (the interception front's), owned from now on.
    init(adopting context: OpaquePointer) {
        self.context = context
    }

    deinit { SSL_CTX_free(context) }

    /// A new TLS session for one accepted connection.
    func session() -> OpaquePointer? { SSL_new(context) }

    /// OpenSSL's last error as text.
    static func lastError() -> String {
        String(cString: stubd_ssl_last_error_text())
    }
}
