public import StubdSystem

/// Why the HTTP engine could not start, with the operation, the address and what to do.
public enum EngineError: Error, CustomStringConvertible, Equatable {
    /// `--host` did not resolve to an address.
    case resolve(host: String, reason: String)
    /// The socket could not be bound (port in use, privileged port, address not local); `flag`
    /// is the option that chose the port (`--port`, `--https-port`).
    case bind(host: String, port: Int, errno: Errno, flag: String = "--port")
    /// The HTTPS certificate or key cannot be used; `flag` names the option or file to fix.
    case tls(flag: String, problem: String)
    /// A libevent object could not be created (out of memory or file descriptors).
    case libevent(operation: String)
    /// The forward proxy would listen beyond loopback with no password: an open relay.
    case proxyWithoutPassword(host: String)
    /// A session's proxy port cannot be opened; the sentence says why and what to do.
    case proxyPortRefused(String)

    /// A sentence that says what went wrong and what to do.
    public var description: String {
        switch self {
        case .resolve(let host, let reason):
            return "--host \(host): cannot be resolved (\(reason)); use an address such as 127.0.0.1, 0.0.0.0 or ::1"
        case .bind(let host, let port, let code, let flag):
            switch code {
            case .addressInUse:
                return "\(flag) \(port): \(host):\(port) is already in use; stop the other server or pick another port (\(flag) 0 picks a free one)"
            case .permissionDenied:
                return "\(flag) \(port): binding \(host):\(port) is not permitted (\(code)); use a port above 1023"
            case .addressNotAvailable:
                return "--host \(host): not an address of this machine (\(code)); use 127.0.0.1 or 0.0.0.0"
            default:
                return "cannot listen on \(host):\(port): \(code); check --host and \(flag)"
            }
        case .tls(let flag, let problem):
            return "\(flag): \(problem)"
        case .libevent(let operation):
            return "libevent could not \(operation); check free memory and the open-file limit (ulimit -n)"
        case .proxyPortRefused(let why):
            return why
        case .proxyWithoutPassword(let host):
            return "--proxy-host \(host): a proxy on an address other devices reach needs --proxy-password SECRET (clients then use "
                + "http://SESSION:SECRET@HOST:PORT as their proxy); without one anyone on the network could use this machine as a relay"
        }
    }
}
