import Foundation
import Testing
import StubdTestSupport
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdCertificates
@testable import StubdEngine
import StubdTestTags

/// HTTPS on the engine with certificates made at test time (stubd's local CA in a temporary
/// folder, and hand-made bad ones): real curl and Python clients, one route table served over
/// HTTP and HTTPS, faults and delays under TLS, refusals.
@Suite(.serialized, .tags(.process)) struct HTTPSEndToEndTests {
    static func caFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("stubd-ca-\(UUID().uuidString)").path
    }

    static let fixtures: [Fixture] = {
        var dribbled = route("/dribble", outcome: ok("0123456789"))
        dribbled.dribble = Dribble(chunks: 5, seconds: 0.4)
        return [route("/zen", outcome: ok("Design for failure.")), route("/reset", outcome: .fault(.reset)),
                route("/slow", outcome: ok("slow"), delay: 0.3), dribbled]
    }()

    /// A server on HTTP and HTTPS with the local CA's certificate for its default names and `extra`.
    static func server(ca folder: String, extra: [String] = []) throws -> (TestServer, LocalCertificateAuthority) {
        let (authority, created) = try LocalCertificateAuthority.open(folder: folder)
        #expect(created)
        let issued = try authority.serverCertificate(names: LocalCertificateAuthority.serverNames(extra: extra))
        #expect(issued.issued)
        let server = try TestServer(fixtures: fixtures) {
            $0.https = HTTPSSettings(port: 0, certificateFile: issued.certificateFile, keyFile: issued.keyFile)
        }
        return (server, authority)
    }

    @Test func curlAndPythonWithTheCAGetTheStubForEveryName() throws {
        let (server, authority) = try Self.server(ca: Self.caFolder(), extra: ["dev.stubd.test"])
        defer { server.stop() }
        let port = try #require(server.server.httpsPort)
        for url in ["https://localhost:\(port)/zen", "https://127.0.0.1:\(port)/zen"] {
            #expect(try Curl.run(["--cacert", authority.certificateFile, url]).stdout == "Design for failure.", "\(url)")
        }
        let named = try Curl.run(["--cacert", authority.certificateFile, "--resolve", "dev.stubd.test:\(port):127.0.0.1", "https://dev.stubd.test:\(port)/zen"])
        #expect(named.stdout == "Design for failure.", "\(named.stderr)")
        let python = try Self.python("""
            import requests, ssl, urllib.request
            print(requests.get("https://localhost:\(port)/zen", verify="\(authority.certificateFile)").text)
            print(urllib.request.urlopen("https://127.0.0.1:\(port)/zen", context=ssl.create_default_context(cafile="\(authority.certificateFile)")).read().decode())
            """)
        #expect(python == "Design for failure.\nDesign for failure.\n")
        // Without the CA: refused (curl's "peer certificate cannot be authenticated", 60).
        #expect(try Curl.run(["https://localhost:\(port)/zen"]).status == 60)
        // A name the certificate does not cover: refused (60 on curl 7.88: no alternative name matches).
        let other = try Curl.run(["--cacert", authority.certificateFile, "--resolve", "other.test:\(port):127.0.0.1", "https://other.test:\(port)/zen"])
        #expect(other.status != 0 && other.stdout.isEmpty)
    }

    @Test func oneTableIsServedOverHTTPAndHTTPSWithKeepAlive() throws {
        let (server, authority) = try Self.server(ca: Self.caFolder())
        defer { server.stop() }
        let port = try #require(server.server.httpsPort)
        #expect(try Curl.run([server.url("/zen")]).stdout == "Design for failure.")
        // A runtime route added over HTTP answers over HTTPS.
        try server.server.add([route("/added", outcome: ok("added"))])
        let both = try Curl.run(["--cacert", authority.certificateFile, "-w", " %{num_connects}", "https://localhost:\(port)/added", "https://localhost:\(port)/zen"])
        #expect(both.stdout == "added 1Design for failure. 0", "two requests, one TLS connection: \(both.stdout)")
        let tls10 = try Curl.run(["--cacert", authority.certificateFile, "--tls-max", "1.1", "https://localhost:\(port)/zen"])
        #expect(tls10.status != 0, "TLS 1.1 and older are refused")
    }

    @Test func aResetIsStillAResetAndDelaysAndDribblesHoldUnderTLS() throws {
        let (server, authority) = try Self.server(ca: Self.caFolder())
        defer { server.stop() }
        let port = try #require(server.server.httpsPort)
        // Over HTTP/1.1 a TCP reset; curl's own choice over TLS is h2 (ALPN), where it is the stream's reset.
        let reset = try Curl.run(["--http1.1", "--cacert", authority.certificateFile, "https://localhost:\(port)/reset"])
        #expect(reset.status == 56 && reset.stderr.contains("reset"), "\(reset.status) \(reset.stderr)")
        let streamReset = try Curl.run(["--cacert", authority.certificateFile, "https://localhost:\(port)/reset"])
        #expect(streamReset.status == 92 && streamReset.stderr.contains("INTERNAL_ERROR"), "\(streamReset.status) \(streamReset.stderr)")
        let slow = try Curl.run(["--cacert", authority.certificateFile, "-w", " %{time_total}", "https://localhost:\(port)/slow"])
        let parts = slow.stdout.split(separator: " ")
        #expect(parts.first == "slow")
        #expect((Double(parts.last ?? "") ?? 0) >= 0.3, "\(slow.stdout)")
        let dribble = try Curl.run(["--cacert", authority.certificateFile, "-w", " %{time_starttransfer} %{time_total}", "https://localhost:\(port)/dribble"])
        let timing = dribble.stdout.split(separator: " ")
        #expect(timing.first == "0123456789", "\(dribble.stdout)")
        #expect((Double(timing.last ?? "") ?? 0) >= 0.4, "the whole body took the dribble's time: \(dribble.stdout)")
    }

    @Test func expiredAndMismatchedCertificatesAreRefused() throws {
        let folder = Self.caFolder()
        let (authority, _) = try LocalCertificateAuthority.open(folder: folder)
        let caPEM = try #require(FileManager.default.contents(atPath: authority.certificateFile))
        let caKey = try #require(FileManager.default.contents(atPath: folder + "/stubd-ca-key.pem"))
        let ca = try #require(PEMCertificate(certificatePEM: [UInt8](caPEM), keyPEM: [UInt8](caKey)))
        let expired = try #require(PEMCertificate.make(commonName: "localhost", issuer: ca, isCA: false, validDays: -1, subjectAltNames: "DNS:localhost"))
        try Data(expired.certificatePEM).write(to: URL(fileURLWithPath: folder + "/expired.pem"))
        try Data(expired.keyPEM).write(to: URL(fileURLWithPath: folder + "/expired-key.pem"))
        let server = try TestServer(fixtures: Self.fixtures) {
            $0.https = HTTPSSettings(port: 0, certificateFile: folder + "/expired.pem", keyFile: folder + "/expired-key.pem")
        }
        defer { server.stop() }
        let refused = try Curl.run(["--cacert", authority.certificateFile, "https://localhost:\(server.server.httpsPort!)/zen"])
        #expect(refused.status == 60 && refused.stderr.contains("expired"), "\(refused.stderr)")
        // A key that is not the certificate's: nothing is served, the error names the flag.
        let other = try #require(PEMCertificate.make(commonName: "x", issuer: nil, isCA: true, validDays: 1))
        try Data(other.keyPEM).write(to: URL(fileURLWithPath: folder + "/other-key.pem"))
        #expect(throws: EngineError.tls(flag: "--tls-key \(folder)/other-key.pem",
                                        problem: "does not belong to the certificate in \(folder)/expired.pem; give the key the certificate was issued for")) {
            try TestServer(fixtures: []) { $0.https = HTTPSSettings(port: 0, certificateFile: folder + "/expired.pem", keyFile: folder + "/other-key.pem") }
        }
        do {
            _ = try TestServer(fixtures: []) { $0.https = HTTPSSettings(port: 0, certificateFile: folder + "/missing.pem", keyFile: folder + "/other-key.pem") }
            Issue.record("a missing certificate file was accepted")
        } catch {
            #expect("\(error)".contains("--tls-cert \(folder)/missing.pem: cannot be used as a PEM certificate chain"), "\(error)")
        }
    }

    @Test func theCAFolderMustBeTheOwnersOnlyAndServerCertificatesFollowTheNames() throws {
        let folder = Self.caFolder()
        let (authority, _) = try LocalCertificateAuthority.open(folder: folder)
        let first = try authority.serverCertificate(names: ["localhost"])
        #expect(first.issued)
        #expect(try !authority.serverCertificate(names: ["localhost"]).issued, "same names: kept")
        #expect(try authority.serverCertificate(names: ["localhost", "lan.test"]).issued, "new name: re-issued")
        let keyMode = try FileManager.default.attributesOfItem(atPath: folder + "/stubd-ca-key.pem")[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int == 0o700)
        #expect(try LocalCertificateAuthority.open(folder: folder).created == false)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        #expect(throws: CertificateError.notPrivate(folder, mode: 0o755, fix: "chmod 700 \(folder)")) { try LocalCertificateAuthority.open(folder: folder) }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder + "/stubd-ca-key.pem")
        #expect(throws: CertificateError.self) { try LocalCertificateAuthority.open(folder: folder) }
    }

    /// A small reply leaves as one TLS record (head and body together), as nginx sends it: a
    /// raw socket under a Python memory-BIO TLS client counts the application-data records that
    /// carry each reply on a keep-alive connection.
    @Test func aSmallReplyIsOneTLSRecord() throws {
        let (server, authority) = try Self.server(ca: Self.caFolder())
        defer { server.stop() }
        let port = try #require(server.server.httpsPort)
        let output = try Self.python("""
            import socket, ssl
            context = ssl.create_default_context(cafile="\(authority.certificateFile)")
            context.maximum_version = ssl.TLSVersion.TLSv1_2  # no session tickets after the handshake
            raw = socket.create_connection(("127.0.0.1", \(port)))
            incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
            tls = context.wrap_bio(incoming, outgoing, server_hostname="localhost")
            def flush():
                data = outgoing.read()
                if data: raw.sendall(data)
            while True:
                try:
                    tls.do_handshake(); flush(); break
                except ssl.SSLWantReadError:
                    flush(); incoming.write(raw.recv(65536))
            raw.settimeout(5)
            for _ in range(3):
                tls.write(b"GET /zen HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n"); flush()
                # Read whole records until the reply's body has been decrypted, counting them.
                records, pending, body = [], b"", b""
                while not body.endswith(b"Design for failure."):
                    pending += raw.recv(65536)
                    while len(pending) >= 5 and len(pending) >= 5 + int.from_bytes(pending[3:5], "big"):
                        size = 5 + int.from_bytes(pending[3:5], "big")
                        records.append(pending[0]); incoming.write(pending[:size]); pending = pending[size:]
                    try:
                        body += tls.read(65536)
                    except ssl.SSLWantReadError:
                        pass
                print(sum(1 for kind in records if kind == 23), len(pending) == 0)
            """)
        #expect(output == "1 True\n1 True\n1 True\n", "application-data records per reply: \(output)")
    }

    /// A client that sends its first request in the same write as its handshake's Finished (a
    /// TLS 1.3 client may) is answered: nothing the server's OpenSSL has read is left waiting for
    /// a socket event (with OpenSSL's read-ahead on, libevent 2.1 left it there and the request
    /// stalled every time).
    @Test func aRequestSentWithTheClientsFinishedIsAnswered() throws {
        let (server, authority) = try Self.server(ca: Self.caFolder())
        defer { server.stop() }
        let port = try #require(server.server.httpsPort)
        let output = try Self.python("""
            import socket, ssl
            context = ssl.create_default_context(cafile="\(authority.certificateFile)")
            for attempt in range(3):
                raw = socket.create_connection(("127.0.0.1", \(port)))
                incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
                tls = context.wrap_bio(incoming, outgoing, server_hostname="localhost")
                while True:
                    try:
                        tls.do_handshake(); break
                    except ssl.SSLWantReadError:
                        data = outgoing.read()
                        if data: raw.sendall(data)
                        incoming.write(raw.recv(65536))
                tls.write(b"GET /zen HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n")
                raw.sendall(outgoing.read())  # Finished and the request in one write
                raw.settimeout(5)
                body = b""
                try:
                    while not body.endswith(b"Design for failure."):
                        chunk = raw.recv(65536)
                        if not chunk: break
                        incoming.write(chunk)
                        try:
                            body += tls.read(65536)
                        except ssl.SSLWantReadError:
                            pass
                    print("answered" if body.endswith(b"Design for failure.") else "closed")
                except socket.timeout:
                    print("stalled")
                raw.close()
            """)
        #expect(output == "answered\nanswered\nanswered\n")
    }

    static func python(_ script: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
