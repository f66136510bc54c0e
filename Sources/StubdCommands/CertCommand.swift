import ArgumentParser
import Foundation
import StubdRuntime
import StubdCertificates
import StubdSystem

/// `stubd cert`: where stubd's local CA is, its fingerprint, and the exact steps to trust it on
/// each platform a team uses; `--der` exports it for Android, `--reset` makes a new one.
struct CertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cert",
        abstract: "Show stubd's local CA (made on first use) and how to trust it on each platform.",
        discussion: """
              $ stubd cert
              $ stubd serve --https-port 8443
              $ curl --cacert ~/.stubd/ca/stubd-ca.pem https://localhost:8443/zen
            """
    )

    @Option(name: .customLong("ca-dir"), help: "Folder of the local CA (default: ~/.stubd/ca).")
    var caDir: String?

    @Option(name: .customLong("der"), help: "Also write the CA certificate in DER to this file (Android's certificate installer takes it).")
    var der: String?

    @Option(name: .customLong("pem"), help: "Write only the CA certificate in PEM to this file ('-': standard output) and nothing else — for `docker exec CONTAINER stubd cert --pem - > stubd-ca.pem`.")
    var pem: String?

    @Flag(help: "Make a new CA (the old one, and every certificate it issued, stop being used; devices must trust the new one).")
    var reset = false

    func run() throws {
        let folder = caDir ?? LocalCertificateAuthority.defaultFolder
        if reset {
            LocalCertificateAuthority.reset(folder: folder)
            printOut("stubd: removed the CA in \(folder); making a new one")
        }
        let authority: LocalCertificateAuthority
        let fingerprint: String
        let derBytes: [UInt8]
        do throws(CertificateError) {
            let (opened, created) = try LocalCertificateAuthority.open(folder: folder)
            authority = opened
            fingerprint = try opened.fingerprint()
            derBytes = try opened.der()
            if created && pem != "-" { printOut("stubd: made a local CA in \(folder)") }
        } catch {
            printError("stubd: error: --ca-dir \(error.description)")
            throw ExitCode(1)
        }
        if let der {
            do throws(SystemError) {
                try System.writeFileDurably(derBytes, to: der)
            } catch {
                printError("stubd: error: --der \(der) cannot be written (\(error)); give a path in a folder you can write")
                throw ExitCode(1)
            }
        }
        let ca = authority.certificateFile
        if let pem {
            guard let bytes = FileManager.default.contents(atPath: ca) else {
                printError("stubd: error: \(ca) cannot be read; run stubd cert --reset to make a new CA")
                throw ExitCode(1)
            }
            if pem == "-" {
                FileHandle.standardOutput.write(bytes)
                return
            }
            do throws(SystemError) {
                try System.writeFileDurably([UInt8](bytes), to: pem)
            } catch {
                printError("stubd: error: --pem \(pem) cannot be written (\(error)); give a path in a folder you can write")
                throw ExitCode(1)
            }
        }
        let derFile = der ?? "stubd-ca.der"
        printOut("""
            CA certificate: \(ca)
            SHA-256 fingerprint: \(fingerprint)
            Serve HTTPS with it: stubd serve --https-port 8443   (names: \(LocalCertificateAuthority.serverNames().joined(separator: ", ")); add more with --cert-host NAME)

            iOS Simulator (booted device):
              xcrun simctl keychain booted add-root-cert \(ca)
            Parallel UI testing runs on clones of that device in the "testing" device set: add the
            certificate before the run (clones copy the device), or to every clone of a run:
              xcrun simctl --set testing list devices | grep -Eo '[0-9A-F-]{36}' | xargs -I{} xcrun simctl --set testing keychain {} add-root-cert \(ca)

            Android emulator (debug builds; the app reaches this machine as https://10.0.2.2:8443):
              stubd cert --der \(derFile)
              adb push \(derFile) /sdcard/Download/stubd-ca.der
              then Settings > Security > Encryption & credentials > Install a certificate > CA certificate, pick stubd-ca.der
              and let debug builds trust user CAs, in res/xml/network_security_config.xml (android:networkSecurityConfig in the manifest):
                <network-security-config>
                  <debug-overrides>
                    <trust-anchors>
                      <certificates src="user" />
                    </trust-anchors>
                  </debug-overrides>
                </network-security-config>

            macOS (browsers, curl, the Mac's URLSession):
              sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain \(ca)

            Debian/Ubuntu (system store: curl, wget, Python's ssl with certifi left out):
              sudo cp \(ca) /usr/local/share/ca-certificates/stubd-ca.crt && sudo update-ca-certificates

            One process only, without installing anything:
              curl:     curl --cacert \(ca) https://localhost:8443/zen   (or CURL_CA_BUNDLE=\(ca))
              Node:     NODE_EXTRA_CA_CERTS=\(ca) node app.js
              Python:   REQUESTS_CA_BUNDLE=\(ca) python3 app.py   (requests; SSL_CERT_FILE=\(ca) for ssl/urllib)
              Java:     keytool -importcert -noprompt -alias stubd -file \(ca) -keystore stubd.jks -storepass changeit
                        java -Djavax.net.ssl.trustStore=stubd.jks -Djavax.net.ssl.trustStorePassword=changeit …
            """)
        if let der { printOut("stubd: wrote the CA certificate in DER to \(der)") }
    }
}
