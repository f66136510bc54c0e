public import StubModel

/// `POST /__stubd/proxy/ports`: a proxy port of the caller's session — every request through it
/// belongs to that session, no credentials needed (an iOS Simulator takes the Mac's proxy
/// setting, where a session cannot be written into a URL; Chromium refuses credentials in
/// `--proxy-server`).
public struct ProxyPort: AdminBody {
    /// The port.
    public let port: Int
    /// The session its requests belong to.
    public let session: String
    /// The proxy URL to give the device (`http://127.0.0.1:PORT`, or the `--proxy-host` address).
    public let proxy: String

    /// A port of `session`.
    public init(port: Int, session: String, proxy: String) {
        (self.port, self.session, self.proxy) = (port, session, proxy)
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected a proxy port object")
        port = try fields.int("port")
        session = try fields.string("session")
        proxy = try fields.string("proxy")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("port", .int(port)), ("session", .string(session)), ("proxy", .string(proxy))]) }

    /// `POST /__stubd/proxy/ports`.
    public static var schema: AdminSchema {
        .object("", ["port": .integer("the port"), "session": .string("the session its requests belong to"),
                     "proxy": .string("the proxy URL to give the device")])
    }
}

/// `GET /__stubd/proxy/ports`: the caller's session's proxy ports (every session's without one).
public struct ProxyPortList: AdminBody {
    /// The ports, in the order they were opened.
    public let ports: [ProxyPort]

    /// These ports.
    public init(_ ports: [ProxyPort]) {
        self.ports = ports
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        ports = try JSONFields(json, usage: "expected the ports object").array("ports").map { item throws(AdminBodyProblem) in try ProxyPort(json: item) }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("ports", .array(ports.map(\.json)))]) }

    /// `GET /__stubd/proxy/ports`.
    public static var schema: AdminSchema { .object("", ["ports": .array(.of(ProxyPort.self), "in the order they were opened")]) }
}

/// `DELETE /__stubd/proxy/ports/{port}`: the port closed (its connections too).
public struct ClosedProxyPort: AdminBody {
    /// The port closed.
    public let closed: Int

    /// Closed `port`.
    public init(_ closed: Int) {
        self.closed = closed
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        closed = try JSONFields(json, usage: "expected the closed object").int("closed")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("closed", .int(closed))]) }

    /// `DELETE /__stubd/proxy/ports/{port}`.
    public static var schema: AdminSchema { .object("", ["closed": .integer("the port closed")]) }
}
