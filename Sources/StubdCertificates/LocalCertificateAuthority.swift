import Foundation
import StubdSystem

/// stubd's own certificate authority, made once per machine (mkcert's idea): trust its
/// certificate once in a simulator, an emulator, a browser or a test runner, and every HTTPS
/// stubd on this machine is trusted — `https://localhost`, `https://10.0.2.2` from the Android
/// emulator, the machine's name on the LAN.
///
/// The folder (`~/.stubd/ca`, or `--ca-dir`) is the owner's only (0700), as is every key file
/// in it (0600); a folder or key others can read is refused, not used. It holds the CA
/// (`stubd-ca.pem`, `stubd-ca-key.pem`) and the server certificate for the current names
/// (`server.pem`, `server-key.pem`, `server.names`), re-issued whenever the names change or it
/// has less than 30 days left. Keys are P-256, certificates SHA-256; the server certificate is
/// valid 365 days (Apple platforms refuse TLS certificates valid over 825 days), the CA ten
/// years. Certificates are made with OpenSSL, the library stubd's TLS already uses.
public struct LocalCertificateAuthority: Sendable {
    /// The folder holding it.
    public let folder: String

    /// The CA certificate (PEM): what clients are told to trust.
    public var certificateFile: String { folder + "/stubd-ca.pem" }
    var keyFile: String { folder + "/stubd-ca-key.pem" }
    var serverCertificateFile: String { folder + "/server.pem" }
    var serverKeyFile: String { folder + "/server-key.pem" }
    var serverNamesFile: String { folder + "/server.names" }

    /// `$HOME/.stubd/ca`.
    public static var defaultFolder: String {
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.stubd/ca"
    }

    /// The names every server certificate covers: loopback, the Android emulators' host
    /// addresses, this machine's name, and `extra` (`--cert-host`).
    public static func serverNames(extra: [String] = []) -> [String] {
        var names = ["localhost", "127.0.0.1", "::1", "10.0.2.2", "10.0.3.2"]
        let host = ProcessInfo.processInfo.hostName.lowercased()
        if !host.isEmpty { names.append(host) }
        for name in extra.map({ $0.lowercased() }) where !names.contains(name) { names.append(name) }
        return names
    }

    /// Opens the CA in `folder`, making it first when there is none (`created` says so).
    public static func open(folder: String = defaultFolder) throws(CertificateError) -> (authority: LocalCertificateAuthority, created: Bool) {
        let authority = LocalCertificateAuthority(folder: folder)
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .notAFolder(folder) }
            try checkPrivate(folder, expected: 0o700, fix: "chmod 700 \(folder)")
        } else {
            do {
                try files.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .cannotWrite(folder, reason: (error as NSError).localizedDescription)
            }
        }
        if files.fileExists(atPath: authority.certificateFile) {
            try checkPrivate(authority.keyFile, expected: 0o600, fix: "chmod 600 \(authority.keyFile)")
            _ = try authority.loadCA()
            return (authority, false)
        }
        guard let ca = PEMCertificate.make(commonName: "stubd local CA (\(ProcessInfo.processInfo.hostName))", issuer: nil, isCA: true,
                                           validDays: 3650) else {
            throw .openSSL("could not make the CA: \(PEMCertificate.lastError())")
        }
        try write(ca.keyPEM, to: authority.keyFile, private: true)
        try write(ca.certificatePEM, to: authority.certificateFile, private: false)
        return (authority, true)
    }

    /// Removes the CA and its server certificate (`stubd cert --reset`); the next `open` makes a
    /// new one, which clients must trust again.
    public static func reset(folder: String = defaultFolder) {
        let authority = LocalCertificateAuthority(folder: folder)
        for file in [authority.certificateFile, authority.keyFile, authority.serverCertificateFile, authority.serverKeyFile, authority.serverNamesFile] {
            System.removeFile(file)
        }
    }

    /// The server certificate for `names` (issued now if the names changed or it expires within
    /// 30 days): the PEM files an HTTPS listener is given; `issued` says whether it was made now.
    public func serverCertificate(names: [String]) throws(CertificateError) -> (certificateFile: String, keyFile: String, issued: Bool) {
        let settings = (certificateFile: serverCertificateFile, keyFile: serverKeyFile)
        let wanted = names.joined(separator: "\n") + "\n"
        if let existing = FileManager.default.contents(atPath: serverNamesFile), String(decoding: existing, as: UTF8.self) == wanted,
           let certificate = FileManager.default.contents(atPath: serverCertificateFile),
           let key = FileManager.default.contents(atPath: serverKeyFile),
           let current = PEMCertificate(certificatePEM: [UInt8](certificate), keyPEM: [UInt8](key)), current.isValid(forAnother: 30 * 86400) {
            return (settings.certificateFile, settings.keyFile, false)
        }
        let ca = try loadCA()
        let alternativeNames = names.map { Self.isAddress($0) ? "IP:\($0)" : "DNS:\($0)" }.joined(separator: ",")
        guard let server = PEMCertificate.make(commonName: names.first ?? "localhost", issuer: ca, isCA: false, validDays: 365,
                                               subjectAltNames: alternativeNames) else {
            throw .openSSL("could not make the server certificate for \(names.joined(separator: ", ")): \(PEMCertificate.lastError())")
        }
        try Self.write(server.keyPEM, to: serverKeyFile, private: true)
        try Self.write(server.certificatePEM, to: serverCertificateFile, private: false)
        try Self.write(Array(wanted.utf8), to: serverNamesFile, private: false)
        return (settings.certificateFile, settings.keyFile, true)
    }

    /// A certificate for one host an intercepting proxy answers for, made in memory (never
    /// written): a P-256 key and a certificate for `host` (its SAN), valid `validDays` from an
    /// hour ago, signed by this CA.
    public func leafCertificate(for host: String, validDays: Int = 30) throws(CertificateError) -> (certificatePEM: [UInt8], keyPEM: [UInt8]) {
        let ca = try loadCA()
        let name = Self.isAddress(host) ? "IP:\(host)" : "DNS:\(host)"
        guard let leaf = PEMCertificate.make(commonName: host, issuer: ca, isCA: false, validDays: validDays, subjectAltNames: name) else {
            throw .openSSL("could not make a certificate for \(host): \(PEMCertificate.lastError())")
        }
        return (leaf.certificatePEM, leaf.keyPEM)
    }

    /// The CA certificate as PEM (what `stubd-ca.pem` holds).
    public func pem() throws(CertificateError) -> [UInt8] { try loadCA().certificatePEM }

    /// An iOS configuration profile installing the CA as a root (Settings › General › VPN &
    /// Device Management, then Certificate Trust Settings): the same identifiers for the same CA,
    /// so installing it twice replaces it.
    public func mobileConfiguration() throws(CertificateError) -> [UInt8] {
        let ca = try loadCA()
        let hex = ca.sha256Fingerprint.replacingOccurrences(of: ":", with: "")
        func uuid(_ offset: Int) -> String {
            let digits = Array(hex.dropFirst(offset).prefix(32))
            return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
        }
        let der = Data(ca.der).base64EncodedString()
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
              <key>PayloadContent</key>
              <array>
                <dict>
                  <key>PayloadCertificateFileName</key><string>stubd-ca.cer</string>
                  <key>PayloadContent</key><data>\(der)</data>
                  <key>PayloadDisplayName</key><string>stubd local CA</string>
                  <key>PayloadIdentifier</key><string>dev.stubd.ca.\(hex.prefix(16))</string>
                  <key>PayloadType</key><string>com.apple.security.root</string>
                  <key>PayloadUUID</key><string>\(uuid(0))</string>
                  <key>PayloadVersion</key><integer>1</integer>
                </dict>
              </array>
              <key>PayloadDisplayName</key><string>stubd local CA</string>
              <key>PayloadIdentifier</key><string>dev.stubd.profile.\(hex.prefix(16))</string>
              <key>PayloadType</key><string>Configuration</string>
              <key>PayloadUUID</key><string>\(uuid(32))</string>
              <key>PayloadVersion</key><integer>1</integer>
            </dict>
            </plist>

            """
        return Array(text.utf8)
    }

    /// The CA certificate's SHA-256 fingerprint (`AB:CD:…`).
    public func fingerprint() throws(CertificateError) -> String { try loadCA().sha256Fingerprint }

    /// The CA certificate in DER, for Android's "Install a certificate".
    public func der() throws(CertificateError) -> [UInt8] { try loadCA().der }

    private func loadCA() throws(CertificateError) -> PEMCertificate {
        guard let certificate = FileManager.default.contents(atPath: certificateFile),
              let key = FileManager.default.contents(atPath: keyFile) else {
            throw .unreadable(certificateFile, reason: "the CA certificate or its key (\(keyFile)) cannot be read")
        }
        guard let ca = PEMCertificate(certificatePEM: [UInt8](certificate), keyPEM: [UInt8](key)) else {
            throw .unreadable(certificateFile, reason: "not a PEM certificate with its PEM key")
        }
        return ca
    }

    static func isAddress(_ name: String) -> Bool {
        name.contains(":") || (!name.isEmpty && name.allSatisfy { $0.isNumber || $0 == "." })
    }

    private static func checkPrivate(_ path: String, expected: Int, fix: String) throws(CertificateError) {
        guard let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int else { return }
        if mode & 0o077 != 0 { throw .notPrivate(path, mode: mode, fix: fix) }
    }

    private static func write(_ bytes: [UInt8], to path: String, private isPrivate: Bool) throws(CertificateError) {
        do {
            try System.writeFileDurably(bytes, to: path, permissions: isPrivate ? [.ownerReadWrite] : [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw .cannotWrite(path, reason: error.description)
        }
    }
}

/// Why the local CA or its certificates cannot be used, with the fix.
public enum CertificateError: Error, CustomStringConvertible, Equatable {
    /// The CA path is a file.
    case notAFolder(String)
    /// The folder or a key can be read by others.
    case notPrivate(String, mode: Int, fix: String)
    /// A file cannot be read or parsed.
    case unreadable(String, reason: String)
    /// A file or folder cannot be written.
    case cannotWrite(String, reason: String)
    /// OpenSSL failed.
    case openSSL(String)

    /// The problem and the fix.
    public var description: String {
        switch self {
        case .notAFolder(let path): return "\(path) is a file; give --ca-dir a folder"
        case .notPrivate(let path, let mode, let fix):
            return "\(path) can be read by others (mode \(String(mode, radix: 8))); a CA key must be the owner's only: \(fix)"
        case .unreadable(let path, let reason): return "\(path): \(reason); fix it or make a new CA with stubd cert --reset"
        case .cannotWrite(let path, let reason): return "\(path) cannot be written (\(reason)); give --ca-dir a folder you own"
        case .openSSL(let reason): return reason
        }
    }
}
