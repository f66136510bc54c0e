import COpenSSL
import CStubdTLS
import Foundation

/// A certificate and its key held by OpenSSL, read from and written as PEM. The OpenSSL pointers
/// stay in here.
final class PEMCertificate {
    let certificate: OpaquePointer
    let key: OpaquePointer

    init(certificate: OpaquePointer, key: OpaquePointer) {
        self.certificate = certificate
        self.key = key
    }

    /// Reads a certificate file and its key file; nil when either is not valid PEM.
    convenience init?(certificatePEM: [UInt8], keyPEM: [UInt8]) {
        guard let certificate = Self.withBIO(certificatePEM, { PEM_read_bio_X509($0, nil, nil, nil) }),
              let key = Self.withBIO(keyPEM, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else { return nil }
        self.init(certificate: certificate, key: key)
    }

    deinit {
        X509_free(certificate)
        EVP_PKEY_free(key)
    }

    /// Makes a key and a certificate for it (see `stubd_make_certificate`).
    static func make(commonName: String, issuer: PEMCertificate?, isCA: Bool, validDays: Int, subjectAltNames: String = "") -> PEMCertificate? {
        guard let key = stubd_new_ec_key() else { return nil }
        guard let certificate = stubd_make_certificate(key, commonName, issuer?.certificate, issuer?.key, isCA ? 1 : 0,
                                                       validDays, subjectAltNames) else {
            EVP_PKEY_free(key)
            return nil
        }
        return PEMCertificate(certificate: certificate, key: key)
    }

    var certificatePEM: [UInt8] { Self.memory { PEM_write_bio_X509($0, certificate) } }
    var keyPEM: [UInt8] { Self.memory { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) } }

    /// The certificate in DER (what Android's settings import).
    var der: [UInt8] {
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            _ = i2d_X509(certificate, &cursor)
        }
        return bytes
    }

    /// SHA-256 of the DER certificate, as `AB:CD:…` (what `openssl x509 -fingerprint -sha256` prints).
    var sha256Fingerprint: String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(certificate, EVP_sha256(), &digest, &length) == 1 else { return "" }
        return digest.prefix(Int(length)).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// Whether the certificate is still valid `seconds` from now.
    func isValid(forAnother seconds: Double) -> Bool {
        stubd_certificate_valid_for(certificate, Int(seconds)) == 1
    }

    /// OpenSSL's most recent error as text, for messages.
    static func lastError() -> String {
        String(cString: stubd_ssl_last_error_text())
    }

    private static func withBIO<T>(_ bytes: [UInt8], _ body: (OpaquePointer) -> T?) -> T? {
        bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    private static func memory(_ write: (OpaquePointer) -> Int32) -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else { return [] }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { return [] }
        var data: UnsafeMutablePointer<CChar>?
        let length = stubd_bio_data(bio, &data)
        guard length > 0, let data else { return [] }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }
}
