import ArgumentParser
import StubdRuntime
import StubdCertificates
import StubdEngine

/// HTTPS serving options, for `serve` and `record`.
struct HTTPSArguments: ParsableArguments {
    @Option(name: .customLong("https-port"), help: "Also serve HTTPS on this port (0 picks a free one); without --port, HTTPS only.")
    var httpsPort: Int?

    @Option(name: .customLong("tls-cert"), help: "PEM certificate chain to serve HTTPS with (default: one issued by stubd's local CA).")
    var tlsCert: String?

    @Option(name: .customLong("tls-key"), help: "PEM private key of --tls-cert.")
    var tlsKey: String?

    @Option(name: .customLong("ca-dir"), help: "Folder of stubd's local CA (default: ~/.stubd/ca).")
    var caDir: String?

    @Option(name: .customLong("cert-host"), help: "Another name the local CA's server certificate covers, e.g. a LAN name or address (repeatable).")
    var certHosts: [String] = []

    func validate() throws {
        if let httpsPort, !(0...65535).contains(httpsPort) { throw ValidationError("--https-port must be from 0 to 65535, got \(httpsPort)") }
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together; give both, or neither to use stubd's local CA") }
        if httpsPort == nil && (tlsCert != nil || !certHosts.isEmpty) {
            throw ValidationError("--tls-cert and --cert-host need --https-port PORT")
        }
        if tlsCert != nil && !certHosts.isEmpty { throw ValidationError("--cert-host names go into the local CA's certificate; with --tls-cert, put them in your certificate") }
    }

    /// The HTTPS settings, issuing the local CA's certificate when needed, or nil without
    /// --https-port; `notes` say what was made, for after the banner. Problems with the CA
    /// folder are exit 1 naming it.
    func settings() throws -> (settings: HTTPSSettings?, notes: [String]) {
        guard let httpsPort else { return (nil, []) }
        if let tlsCert, let tlsKey { return (HTTPSSettings(port: httpsPort, certificateFile: tlsCert, keyFile: tlsKey), []) }
        var notes: [String] = []
        do throws(CertificateError) {
            let folder = caDir ?? LocalCertificateAuthority.defaultFolder
            let (authority, created) = try LocalCertificateAuthority.open(folder: folder)
            if created {
                notes.append("stubd: made a local CA in \(folder); trust \(authority.certificateFile) once on each device (stubd cert shows how)")
            }
            let names = LocalCertificateAuthority.serverNames(extra: certHosts)
            let issued = try authority.serverCertificate(names: names)
            if issued.issued { notes.append("stubd: issued an HTTPS certificate for \(names.joined(separator: ", ")) from \(authority.certificateFile)") }
            return (HTTPSSettings(port: httpsPort, certificateFile: issued.certificateFile, keyFile: issued.keyFile), notes)
        } catch {
            printError("stubd: error: --ca-dir \(error.description)")
            throw ExitCode(1)
        }
    }
}
