import CLibevent

/// The request methods libevent 2.1 can receive, in one table: the engine allows exactly these
/// (anything else is answered 501 before routing), names them for routing, and publishes them
/// as the engine's capabilities so routing can warn about unreachable routes.
enum HTTPMethods {
    private static let table: [(command: evhttp_cmd_type, name: String)] = [
        (EVHTTP_REQ_GET, "GET"), (EVHTTP_REQ_POST, "POST"), (EVHTTP_REQ_HEAD, "HEAD"), (EVHTTP_REQ_PUT, "PUT"),
        (EVHTTP_REQ_DELETE, "DELETE"), (EVHTTP_REQ_OPTIONS, "OPTIONS"), (EVHTTP_REQ_TRACE, "TRACE"),
        (EVHTTP_REQ_CONNECT, "CONNECT"), (EVHTTP_REQ_PATCH, "PATCH"),
    ]

    /// Every method name, for `EngineCapabilities`.
    static let names: [String] = table.map(\.name)

    /// The `evhttp_set_allowed_methods` mask letting all of them through.
    static let allowedMask: UInt16 = table.reduce(0) { $0 | UInt16($1.command.rawValue) }

    /// The evhttp command for a method name; nil for one libevent cannot send.
    static func command(named name: String) -> evhttp_cmd_type? {
        table.first { $0.name == name }?.command
    }

    /// The name of a received method.
    @inline(__always)
    static func name(of command: evhttp_cmd_type) -> String {
        switch command {
        case EVHTTP_REQ_GET: return "GET"
        case EVHTTP_REQ_POST: return "POST"
        case EVHTTP_REQ_HEAD: return "HEAD"
        default: return table.first { $0.command == command }?.name ?? "UNKNOWN"
        }
    }
}
