import StubdSystem

/// A bound, listening TCP socket that every worker accepts from (each through its own `dup`).
///
/// Bound here rather than by `evhttp_bind_socket` so the real port of `--port 0` is known, a
/// second stubd on the same port fails with EADDRINUSE (no SO_REUSEPORT), and errors are typed.
struct Listener {
    let fd: Int32
    let port: Int

    /// `noDelay` turns Nagle off for every accepted connection (inherited from the listening
    /// socket): a reply's last partial segment must not wait for the client's delayed ACK.
    static func bind(host: String, port: Int, backlog: Int32 = 4096, flag: String = "--port", noDelay: Bool = false) throws(EngineError) -> Listener {
        let resolved: [SocketAddress]
        do {
            resolved = try System.resolve(host: host, port: port)
        } catch {
            throw .resolve(host: host, reason: error.reason)
        }
        guard let address = resolved.first else { throw .resolve(host: host, reason: "no address") }
        do throws(SystemError) {
            let fd = try System.streamSocket(for: address)
            do {
                try System.setReuseAddress(fd)
                if noDelay { try System.setNoDelay(fd) }
                try System.bind(fd, to: address)
                try System.listen(fd, backlog: backlog)
                try System.setNonBlocking(fd)
                return Listener(fd: fd, port: try System.boundPort(fd))
            } catch {
                System.close(fd)
                throw error
            }
        } catch {
            throw .bind(host: host, port: port, errno: error.errno, flag: flag)
        }
    }

    func close() { System.close(fd) }

    /// Refuses new connections on it (see `System.stopListening`), before the loops stop.
    func stopListening() { System.stopListening(fd) }
}
