package import Foundation

/// A real upstream for proxy and recording tests: Python's http.server running `handler` (the
/// body of a `BaseHTTPRequestHandler` subclass), over HTTPS with a CA and a `localhost`
/// certificate made with the openssl command at test time, or over plain HTTP.
package final class PythonUpstream {
    package let folder: URL
    package let process = Process()
    package let port: Int
    package var caFile: String { folder.appendingPathComponent("ca.pem").path }

    /// Answers every GET with "secure " and the path.
    package static let secureHandler = """
            def do_GET(self):
                body = b"secure " + self.path.encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
        """

    package let tls: Bool
    package var baseURL: String { "\(tls ? "https://localhost" : "http://127.0.0.1"):\(port)" }

    package init(handler: String = PythonUpstream.secureHandler, tls: Bool = true, port fixedPort: Int = 0) throws {
        self.tls = tls
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if tls {
            try Data("subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\n".utf8).write(to: folder.appendingPathComponent("leaf.ext"))
            let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
            try Self.run(["req", "-x509"] + curve + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=stubd test CA",
                          "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"], in: folder)
            try Self.run(["req"] + curve + ["-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=localhost"], in: folder)
            try Self.run(["x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "leaf.pem",
                          "-days", "2", "-extfile", "leaf.ext"], in: folder)
        }
        let script = """
            import gzip, http.server, json, socket, ssl, sys, time, zlib
            class Handler(http.server.BaseHTTPRequestHandler):
                protocol_version = "HTTP/1.1"
            \(handler)
                def log_message(self, *args):
                    pass
            class Server(http.server.ThreadingHTTPServer):
                address_family = socket.AF_INET6
                request_queue_size = 128  # the default 5 drops concurrent connects (1 s SYN retry)
                def server_bind(self):
                    self.socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
                    super().server_bind()
            server = Server(("::", \(fixedPort)), Handler)
            if \(tls ? "True" : "False"):
                context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
                context.load_cert_chain("leaf.pem", "leaf.key")
                server.socket = context.wrap_socket(server.socket, server_side=True)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        process.currentDirectoryURL = folder
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var line = Data()
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        port = Int(String(decoding: line, as: UTF8.self)) ?? 0
    }

    package func stop() {
        // SIGKILL: the test process blocks SIGTERM (stubd's signal handling), and children
        // inherit the blocked mask, so Python would never see a SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    private static func run(_ arguments: [String], in folder: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}
