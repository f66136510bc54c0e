import ArgumentParser
import Foundation
import StubdRuntime
import StubdEngine

/// Where a server listens, for `serve` and `record`: address, HTTP port, HTTPS, loops.
struct ListenArguments: ParsableArguments {
    @Option(name: [.customShort("H"), .long], help: "Address to listen on.")
    var host: String = "127.0.0.1"

    @Option(name: [.short, .long], help: "Port to listen on (default 8080; with --https-port only, no plain HTTP); 0 picks a free port and prints it.")
    var port: Int?

    @OptionGroup var https: HTTPSArguments

    @Option(help: "Event-loop threads sharing the port (one per core unless given).")
    var workers: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .customLong("http2"), help: ArgumentHelp("HTTP/2: h2 by ALPN on the HTTPS port, h2c on the plain port by its preface (curl --http2-prior-knowledge, gRPC clients) or by Upgrade: h2c (Java's HttpClient, curl --http2): on or off. Off speaks HTTP/1.1 only: the preface is answered GOAWAY HTTP_1_1_REQUIRED.", valueName: "on|off"))
    var http2: String = "on"

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be from 0 to 65535, got \(port)") }
        guard (1...256).contains(workers) else { throw ValidationError("--workers must be from 1 to 256, got \(workers)") }
        guard ["on", "off"].contains(http2) else { throw ValidationError("--http2 must be on or off, got \(http2)") }
    }

    /// Sets host, ports, HTTPS (issuing the local CA's certificate when needed) and loops;
    /// returns the lines to print after the banner.
    func configure(_ configuration: inout EngineConfiguration) throws -> [String] {
        configuration.host = host
        configuration.port = port ?? 8080
        configuration.servesHTTP = port != nil || https.httpsPort == nil
        configuration.workers = workers
        configuration.http2 = http2 == "on"
        let (settings, notes) = try https.settings()
        configuration.https = settings
        return notes
    }

    /// The lines after a banner: the HTTPS address when both are served, then `notes`.
    static func announce(_ server: StubdServer, notes: [String]) {
        if server.servesHTTP, let httpsURL = server.httpsBaseURL { printOut("stubd: and over HTTPS on \(httpsURL)") }
        for note in notes { printOut(note) }
    }
}
