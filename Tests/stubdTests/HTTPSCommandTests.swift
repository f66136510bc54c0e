import Foundation
import Testing
import StubdTestTags

/// `--https-port` and `stubd cert` as a user runs them, with a CA folder made for the test.
@Suite(.tags(.process)) struct HTTPSCommandTests {
    static func caFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("stubd-cli-ca-\(UUID().uuidString)").path
    }

    static func openssl(_ arguments: [String]) throws -> String {
        try StubdProcess.run(arguments, program: URL(fileURLWithPath: "/usr/bin/openssl")).stdout
    }

    @Test func certPrintsTheCAWhoseFingerprintMatchesTheFileAndExportsDER() throws {
        let folder = Self.caFolder()
        let der = folder + ".der"
        let result = try StubdProcess.run(["cert", "--ca-dir", folder, "--der", der])
        #expect(result.status == 0, "\(result.stderr)")
        let fromFile = try Self.openssl(["x509", "-in", folder + "/stubd-ca.pem", "-noout", "-fingerprint", "-sha256"])
        let fingerprint = try #require(fromFile.split(separator: "=").last).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(result.stdout.contains("SHA-256 fingerprint: \(fingerprint)\n"), "\(result.stdout)")
        #expect(try Self.openssl(["x509", "-inform", "der", "-in", der, "-noout", "-fingerprint", "-sha256"]) == fromFile)
        for step in ["xcrun simctl keychain booted add-root-cert \(folder)/stubd-ca.pem",
                     "xcrun simctl --set testing keychain {} add-root-cert \(folder)/stubd-ca.pem", "<certificates src=\"user\" />", "adb push",
                     "security add-trusted-cert", "update-ca-certificates", "NODE_EXTRA_CA_CERTS=", "REQUESTS_CA_BUNDLE=", "keytool -importcert"] {
            #expect(result.stdout.contains(step), "missing: \(step)")
        }
        // --reset makes a new CA: another fingerprint.
        let reset = try StubdProcess.run(["cert", "--ca-dir", folder, "--reset"])
        #expect(reset.status == 0 && !reset.stdout.contains(fingerprint))
    }

    @Test func httpsOnlyServesTheStubsToAClientThatTrustsTheCA() throws {
        let folder = Self.caFolder()
        let stubd = try ServingStubd(["--https-port", "0", "--ca-dir", folder, "--quiet"])
        #expect(stubd.baseURL.hasPrefix("https://127.0.0.1:"), "\(stubd.banner)")
        #expect(StubdProcess.curl(["--cacert", folder + "/stubd-ca.pem", stubd.baseURL + "/zen"]) == "Design for failure.")
        #expect(StubdProcess.curl([stubd.baseURL + "/zen"]).isEmpty, "refused without the CA")
        let stopped = stubd.stop()
        #expect(stopped.stdout.contains("stubd: made a local CA in \(folder)"), "\(stopped.stdout)")
        #expect(stopped.stdout.contains("stubd: issued an HTTPS certificate for localhost, 127.0.0.1, ::1, 10.0.2.2, 10.0.3.2"))
    }

    @Test func badHTTPSInputIsRefusedAndNothingIsServed() throws {
        let alone = try StubdProcess.run(["serve", "--https-port", "0", "--tls-cert", "/nonexistent.pem"])
        #expect(alone.status == 64 && alone.stderr.contains("--tls-cert and --tls-key go together"), "\(alone.stderr)")
        let missing = try StubdProcess.run(["serve", "--https-port", "0", "--tls-cert", "/nonexistent.pem", "--tls-key", "/nonexistent-key.pem"])
        #expect(missing.status == 1 && missing.stderr.contains("--tls-cert /nonexistent.pem: cannot be used as a PEM certificate chain"), "\(missing.stderr)")
        #expect(!missing.stdout.contains("serving"))
        let folder = Self.caFolder()
        #expect(try StubdProcess.run(["cert", "--ca-dir", folder]).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        let open = try StubdProcess.run(["serve", "--https-port", "0", "--ca-dir", folder])
        #expect(open.status == 1 && open.stderr.contains("stubd: error: --ca-dir \(folder) can be read by others (mode 755); a CA key must be the owner's only: chmod 700 \(folder)"), "\(open.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder)
        let first = try ServingStubd(["--port", "0", "--https-port", "0", "--ca-dir", folder, "--quiet"])
        defer { _ = first.stop() }
        #expect(first.banner.hasPrefix("stubd: serving"))
        let httpsLine = first.nextLine()
        let httpsPort = try #require(httpsLine.split(separator: ":").last.flatMap { Int($0) }, "\(httpsLine)")
        #expect(httpsLine == "stubd: and over HTTPS on https://127.0.0.1:\(httpsPort)")
        let second = try StubdProcess.run(["serve", "--port", "0", "--https-port", String(httpsPort), "--ca-dir", folder])
        #expect(second.status == 1 && second.stderr.contains("--https-port \(httpsPort): 127.0.0.1:\(httpsPort) is already in use"), "\(second.stderr)")
    }

    @Test func recordListensOnHTTPSToo() throws {
        let upstream = try ServingStubd(["--port", "0", "--quiet"])
        defer { _ = upstream.stop() }
        let folder = Self.caFolder()
        let out = try StubdProcess.temporaryFolder([:]) + "/recorded"
        let recorder = try ServingStubd(executable: StubdProcess.executable,
                                        arguments: ["record", "--upstream", upstream.baseURL, "--out", out, "--https-port", "0", "--ca-dir", folder, "--quiet"])
        #expect(recorder.baseURL.hasPrefix("https://"), "\(recorder.banner)")
        #expect(StubdProcess.curl(["--cacert", folder + "/stubd-ca.pem", recorder.baseURL + "/zen"]) == "Design for failure.")
        let stopped = recorder.stop(signal: SIGINT)
        #expect(stopped.stdout.contains("1 fixture file(s) written"), "\(stopped.stdout)")
        // The upstream is told the client came over HTTPS.
        let journal = StubdProcess.curl([upstream.baseURL + "/__stubd/requests?path=/zen"])
        let proto = try #require(journal.range(of: "X-Forwarded-Proto"), "\(journal)")
        #expect(journal[proto.upperBound...].prefix(30).contains("https"), "\(journal)")
    }
}
