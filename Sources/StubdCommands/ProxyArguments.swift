public import ArgumentParser
import StubdCertificates
import StubdEngine
import StubServer
public import StubdProxy

/// `serve --proxy-port`: stubd as a forward proxy for clients whose code cannot be re-pointed
/// (third-party SDKs, WebViews, release builds, a phone): requests to hosts with routes are
/// answered from them — HTTPS too, through a certificate for the host from stubd's local CA —
/// and the others follow `--proxy-unrouted`.
struct ProxyArguments: ParsableArguments {
    @Option(name: .customLong("proxy-port"), help: "Also act as an HTTP(S) forward proxy on this loopback port (0 picks a free one): point a client's proxy setting here.")
    var port: Int?

    @Option(name: .customLong("proxy-host"), help: "The address the proxy listens on (default 127.0.0.1); another one (a phone on Wi-Fi) needs --proxy-password.")
    var host = "127.0.0.1"

    @Option(name: .customLong("proxy-password"), help: "A password every proxy client must send (http://SESSION:PASSWORD@host:port); required off loopback.")
    var password: String?

    @Option(name: .customLong("proxy-unrouted"), help: "Through the proxy, hosts no route names are refused (refuse: fail fast, journaled as misses), passed on untouched (pass) or intercepted, forwarded and recorded into --record DIR (record).")
    var unrouted: UnroutedHosts = .refuse

    @Option(name: .customLong("resolve"), help: "HOST:PORT:ADDRESS: connect to ADDRESS for HOST:PORT when the proxy passes or records (as curl's --resolve; repeatable). The only way pass and record reach loopback or this machine's addresses (never stubd's own ports).")
    var resolve: [String] = []

    /// `--resolve` as `host:port` → address.
    var resolveMap: [String: String] {
        var map: [String: String] = [:]
        for entry in resolve {
            if let parsed = Self.resolveEntry(entry) { map["\(parsed.host):\(parsed.port)"] = parsed.address }
        }
        return map
    }

    /// `HOST:PORT:ADDRESS` (an IPv6 address in brackets or bare), or nil.
    static func resolveEntry(_ entry: String) -> (host: String, port: Int, address: String)? {
        let parts = entry.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, let port = Int(parts[1]), (1...65535).contains(port), !parts[2].isEmpty else { return nil }
        var address = String(parts[2])
        if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        return (parts[0].lowercased(), port, address)
    }

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--proxy-port must be from 0 to 65535, got \(port)") }
        if port == nil && (host != "127.0.0.1" || password != nil) { throw ValidationError("--proxy-host and --proxy-password need --proxy-port PORT") }
        if password?.isEmpty == true { throw ValidationError("--proxy-password must not be empty") }
        if port == nil && !resolve.isEmpty { throw ValidationError("--resolve needs --proxy-port PORT") }
        if port == nil && unrouted != .refuse { throw ValidationError("--proxy-unrouted needs --proxy-port PORT") }
        for entry in resolve where Self.resolveEntry(entry) == nil {
            throw ValidationError("--resolve \(entry): give HOST:PORT:ADDRESS, e.g. api.example.com:443:127.0.0.1")
        }
    }

    /// The engine's proxy settings, minting each intercepted host's certificate from the local CA
    /// in `caFolder`; nil without --proxy-port. Problems with the CA folder are exit 1 naming it.
    func settings(caFolder: String?) throws -> (settings: ProxySettings?, notes: [String]) {
        guard let port else { return (nil, []) }
        let folder = caFolder ?? LocalCertificateAuthority.defaultFolder
        do throws(CertificateError) {
            let (authority, created) = try LocalCertificateAuthority.open(folder: folder)
            let notes = created ? ["stubd: made a local CA in \(folder); trust \(authority.certificateFile) on each client of the proxy (stubd cert shows how)"] : []
            let mint: @Sendable (String) -> (certificate: [UInt8], key: [UInt8])? = { host in
                (try? authority.leafCertificate(for: host)).map { ($0.certificatePEM, $0.keyPEM) }
            }
            var settings = ProxySettings(port: port, mint: mint)
            settings.caDocuments = [
                "/__stubd/ca": ("application/x-pem-file", try authority.pem()),
                "/__stubd/ca.pem": ("application/x-pem-file", try authority.pem()),
                "/__stubd/ca.der": ("application/x-x509-ca-cert", try authority.der()),
                "/__stubd/ca.mobileconfig": ("application/x-apple-aspen-config", try authority.mobileConfiguration()),
            ]
            settings.host = host
            settings.password = password
            return (settings, notes)
        } catch {
            printError("stubd: error: --ca-dir \(error.description)")
            throw ExitCode(1)
        }
    }
}

extension UnroutedHosts: ExpressibleByArgument {}
