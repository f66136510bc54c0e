import StubModel
/// The admin API, declared once: every endpoint's method, path, what it takes and what it
/// answers. The server's router is built from it (each handler is registered against a call
/// declared here), the test kit calls through it (typed values both ways), and docs/ADMIN-API.md's
/// reference is checked against it — so the three cannot drift.
///
/// No libevent, no server: the test kit links it on iOS.
public enum AdminContract {
    /// The path prefix every endpoint lives under; no stub is ever served there.
    /// (A literal, not a stored `let`: every request asks `isAdmin`, and a global read from another
    /// module is a call to its accessor.)
    @inlinable public static var prefix: String { "/__stubd" }

    /// Whether a raw path is the admin API's: `/__stubd` or below it, compared byte by byte (no
    /// Unicode equivalence: a combining mark after the `/` does not take a path out of the admin
    /// API, and every request pays a few instructions, not a `hasPrefix`).
    @inlinable @inline(__always) public static func isAdmin(_ rawPath: String) -> Bool {
        rawPath.utf8.withContiguousStorageIfAvailable(isAdmin) ?? isAdmin(bytes: Array(rawPath.utf8))
    }

    /// `isAdmin` of a path's bytes: `/__stubd`, then the end or `/`.
    @inlinable @inline(__always) static func isAdmin(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // The second byte first: almost no other path starts with `/_`.
        guard bytes.count >= 8, bytes[1] == UInt8(ascii: "_"), bytes[0] == UInt8(ascii: "/"), bytes[2] == UInt8(ascii: "_"),
              bytes[3] == UInt8(ascii: "s"), bytes[4] == UInt8(ascii: "t"), bytes[5] == UInt8(ascii: "u"), bytes[6] == UInt8(ascii: "b"),
              bytes[7] == UInt8(ascii: "d") else { return false }
        return bytes.count == 8 || bytes[8] == UInt8(ascii: "/")
    }

    /// `isAdmin` of a path that is not stored contiguously (bridged), copied out first.
    @inlinable static func isAdmin(bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer(isAdmin)
    }

    // MARK: State

    /// `GET /__stubd/health`: route and journal counts, and a recording under way.
    public static let health = AdminCall<NoBody, Health>("GET", "health", "route and journal counts; a recording under way")
    /// `GET /__stubd/ready`: 200 once the route table is loaded and a serving loop answers — what a
    /// container's `HEALTHCHECK`, a Kubernetes probe or a Testcontainers wait asks. Open to anyone
    /// (a probe carries no token) and it tells nothing but that.
    public static let ready = AdminCall<NoBody, Readiness>("GET", "ready", "200 once the routes are loaded and served; open to probes, no token")
    /// `POST /__stubd/reset`: the session (or, without one, the server) back to its fixtures.
    public static let reset = AdminCall<NoBody, ResetDone>("POST", "reset", "back to the loaded fixtures: runtime routes, scenarios, sequences, journal, state")

    // MARK: Routes

    /// `GET /__stubd/routes`: every route the session sees, in lookup order.
    public static let routes = AdminCall<NoBody, RouteList>("GET", "routes", "every route the session sees, in lookup order")
    /// `POST /__stubd/routes`: runtime routes in the fixture format.
    public static let addRoutes = AdminCall<JSONBody, AddedRoutes>("POST", "routes", "add runtime routes (a fixture file's JSON)", status: 201)
    /// `DELETE /__stubd/routes`: the session's runtime routes (all, without a session).
    public static let removeRoutes = AdminCall<NoBody, RemovedCount>("DELETE", "routes", "remove the session's runtime routes")
    /// `PUT /__stubd/routes/{id}`: replace one runtime route.
    public static let replaceRoute = AdminCall<JSONBody, ReplacedRoute>("PUT", "routes/{id}", "replace one runtime route")
    /// `DELETE /__stubd/routes/{id}`: remove one runtime route.
    public static let removeRoute = AdminCall<NoBody, RemovedRoute>("DELETE", "routes/{id}", "remove one runtime route")
    /// `POST /__stubd/routes/{id}/disable`: turn one route off for the session (every session without one).
    public static let disableRoute = AdminCall<NoBody, SwitchedRoute>("POST", "routes/{id}/disable",
                                                                      "turn one route (fixture or runtime) off for the session; requests pass it by")
    /// `POST /__stubd/routes/{id}/enable`: turn it back on.
    public static let enableRoute = AdminCall<NoBody, SwitchedRoute>("POST", "routes/{id}/enable", "turn a route turned off back on for the session")

    // MARK: Journal

    /// `GET /__stubd/requests`: journal entries, filtered (`?method=&path=&route=&matched=`).
    public static let requests = AdminCall<NoBody, RequestList>("GET", "requests", "journal entries, oldest first (?method=&path=&route=&matched=)",
                                                                 query: ["method", "path", "route", "matched"])
    /// `GET /__stubd/requests/count`: how many match.
    public static let countRequests = AdminCall<NoBody, RequestCount>("GET", "requests/count", "how many journal entries match", query: ["method", "path", "route", "matched"])
    /// `GET /__stubd/requests/snapshot`: the matching requests as canonical text (`RequestSnapshot`).
    public static let requestSnapshot = AdminCall<NoBody, RequestSnapshotText>("GET", "requests/snapshot", "the requests as a canonical, diffable snapshot",
                                                                                 query: ["method", "path", "route", "matched"])
    /// `DELETE /__stubd/requests`: forget the session's entries.
    public static let clearRequests = AdminCall<NoBody, Cleared>("DELETE", "requests", "forget the session's journal entries")

    // MARK: Scenarios and sequences

    /// `GET /__stubd/scenarios`: scenario states and sequence positions.
    public static let scenarios = AdminCall<NoBody, ScenarioStates>("GET", "scenarios", "scenario states and sequence positions")
    /// `PUT /__stubd/scenarios/{name}`: set a scenario's state.
    public static let setScenario = AdminCall<ScenarioChange, ScenarioSet>("PUT", "scenarios/{name}", "set a scenario's state")
    /// `POST /__stubd/scenarios/reset`: scenarios back to Started, sequences to their first answer.
    public static let resetScenarios = AdminCall<NoBody, ResetDone>("POST", "scenarios/reset", "scenarios to Started, sequences to their first answer")

    // MARK: Templates

    /// `PUT /__stubd/clock`: the time `{{now}}` gives the session.
    public static let setClock = AdminCall<ClockSetting, ClockReading>("PUT", "clock", "fix the time {{now}} gives")
    /// `DELETE /__stubd/clock`: real time again.
    public static let clearClock = AdminCall<NoBody, ClockReading>("DELETE", "clock", "real time again")
    /// `PUT /__stubd/random`: seed the session's random values.
    public static let setSeed = AdminCall<SeedSetting, SeedReading>("PUT", "random", "seed {{uuid}} and {{randomValue}}")

    // MARK: Collections

    /// `GET /__stubd/collections`: each collection the session sees and its item count.
    public static let collections = AdminCall<NoBody, CollectionList>("GET", "collections", "collections and their item counts")
    /// `GET /__stubd/collections/{name}`: a collection's items.
    public static let collectionItems = AdminCall<NoBody, CollectionContents>("GET", "collections/{name}", "a collection's items")
    /// `PUT /__stubd/collections/{name}`: replace a collection's items.
    public static let replaceCollection = AdminCall<CollectionItems, CollectionCount>("PUT", "collections/{name}", "replace a collection's items")

    // MARK: Webhooks

    /// `GET /__stubd/webhooks`: webhooks sent and how they ended.
    public static let webhooks = AdminCall<NoBody, WebhookList>("GET", "webhooks", "webhooks sent and how they ended")
    /// `DELETE /__stubd/webhooks`: forget them.
    public static let clearWebhooks = AdminCall<NoBody, Cleared>("DELETE", "webhooks", "forget the webhooks sent")

    // MARK: Recording

    /// `POST /__stubd/recording/start`: forward misses to an upstream and record its answers.
    public static let startRecording = AdminCall<RecordingStart, RecordingStarted>("POST", "recording/start", "record misses from an upstream")
    /// `POST /__stubd/recording/stop`: stop, answered once the last file is written.
    public static let stopRecording = AdminCall<NoBody, JSONBody>("POST", "recording/stop", "stop recording; the summary once every file is written")

    // MARK: Dashboard

    /// `GET /__stubd/ui`: the dashboard page (HTML).
    public static let dashboard = AdminCall<NoBody, NoBody>("GET", "ui", "the dashboard page (HTML)", answers: "text/html")
    /// `GET /__stubd/ui/app.js`: its script.
    public static let dashboardScript = AdminCall<NoBody, NoBody>("GET", "ui/app.js", "the dashboard's script", answers: "text/javascript")
    /// `GET /__stubd/ui/app.css`: its styles.
    public static let dashboardStyles = AdminCall<NoBody, NoBody>("GET", "ui/app.css", "the dashboard's styles", answers: "text/css")
    /// `POST /__stubd/ui/fixtures`: write a drafted fixture file into `--ui-write-dir`.
    public static let writeFixture = AdminCall<FixtureWrite, FixtureWritten>("POST", "ui/fixtures", "write a fixture file into --ui-write-dir", status: 201)
    /// `GET /__stubd/events`: the journal as Server-Sent Events.
    public static let events = AdminCall<NoBody, NoBody>("GET", "events", "the journal as Server-Sent Events",
                                                        query: ["session", "lastEventId", "websockets"], answers: "text/event-stream")
    /// `GET /__stubd/metrics`: Prometheus text.
    public static let metrics = AdminCall<NoBody, NoBody>("GET", "metrics", "counters in Prometheus text format", answers: "text/plain")

    // MARK: WebSockets

    /// `GET /__stubd/websockets`: the session's open conversations.
    public static let webSockets = AdminCall<NoBody, WebSocketList>("GET", "websockets", "the session's open WebSocket conversations")
    /// `POST /__stubd/websockets/send`: a message to the session's open conversations.
    public static let sendWebSocket = AdminCall<WebSocketPush, WebSocketReach>("POST", "websockets/send", "send a message to the session's open WebSocket conversations")
    /// `POST /__stubd/websockets/close`: close them.
    public static let closeWebSockets = AdminCall<WebSocketCloseRequest, WebSocketReach>("POST", "websockets/close", "close the session's open WebSocket conversations")

    // MARK: Proxy

    /// `POST /__stubd/proxy/ports`: a proxy port whose requests all belong to the caller's session.
    public static let openProxyPort = AdminCall<NoBody, ProxyPort>("POST", "proxy/ports", "a forward-proxy port of the session's own (no credentials needed)",
                                                                    status: 201)
    /// `GET /__stubd/proxy/ports`: the session's proxy ports.
    public static let proxyPorts = AdminCall<NoBody, ProxyPortList>("GET", "proxy/ports", "the session's proxy ports")
    /// `DELETE /__stubd/proxy/ports/{port}`: close one.
    public static let closeProxyPort = AdminCall<NoBody, ClosedProxyPort>("DELETE", "proxy/ports/{port}", "close one of the session's proxy ports")

    /// Every endpoint, in the order docs/ADMIN-API.md lists them.
    public static let all: [AdminEndpointSpec] = [
        health.spec, ready.spec, routes.spec, addRoutes.spec, removeRoutes.spec, replaceRoute.spec, removeRoute.spec,
        disableRoute.spec, enableRoute.spec, requests.spec, countRequests.spec, requestSnapshot.spec, clearRequests.spec, reset.spec, scenarios.spec, setScenario.spec, resetScenarios.spec,
        startRecording.spec, stopRecording.spec, setClock.spec, clearClock.spec, setSeed.spec,
        collections.spec, collectionItems.spec, replaceCollection.spec, webhooks.spec, clearWebhooks.spec,
        webSockets.spec, sendWebSocket.spec, closeWebSockets.spec, openProxyPort.spec, proxyPorts.spec, closeProxyPort.spec,
        dashboard.spec, dashboardScript.spec, dashboardStyles.spec, writeFixture.spec, events.spec, metrics.spec,
    ]
}

/// One endpoint as data: method, path (`{name}` takes one segment), what it is for, and the
/// names and shapes of the types it takes and answers (for the reference and `stubd admin-spec`).
public struct AdminEndpointSpec: Sendable, Hashable, CustomStringConvertible {
    /// The method.
    public let method: String
    /// The path after the prefix, as the reference spells it (`routes/{id}`).
    public let path: String
    /// One line of what it does.
    public let summary: String
    /// The request and response type names.
    public let request: String
    /// The name of the type it answers.
    public let response: String
    /// The query parameters it reads (`requests`' filters).
    public let query: [String]
    /// The status of a call that succeeds (201 for calls that create).
    public let status: Int
    /// What it answers: `application/json`, or the media type of a page, script or stream.
    public let answers: String
    /// The body's shape; nil: it sends none.
    public let requestSchema: AdminSchema?
    /// The answer's shape (JSON answers).
    public let responseSchema: AdminSchema

    /// `GET /__stubd/health`.
    public var description: String { "\(method) \(AdminContract.prefix)/\(path)" }

    /// Endpoints are one by method and path.
    public static func == (lhs: AdminEndpointSpec, rhs: AdminEndpointSpec) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path
    }

    /// Hashes method and path.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(path)
    }
}

/// One endpoint with its types: `Request` is what a call sends, `Response` what it answers.
public struct AdminCall<Request: AdminBody, Response: AdminBody>: Sendable {
    /// The endpoint as data.
    public let spec: AdminEndpointSpec

    init(_ method: String, _ path: String, _ summary: String, status: Int = 200, query: [String] = [], answers: String = "application/json") {
        spec = AdminEndpointSpec(method: method, path: path, summary: summary,
                                 request: String(describing: Request.self), response: String(describing: Response.self),
                                 query: query, status: status, answers: answers, requestSchema: Request.self == NoBody.self ? nil : .of(Request.self),
                                 responseSchema: .of(Response.self))
    }

    /// The path with its `{parameters}` filled in order (`routes/r12`).
    public func path(_ parameters: String...) -> String {
        var rest = parameters[...]
        return spec.path.split(separator: "/").map { segment -> String in
            guard segment.hasPrefix("{"), let value = rest.popFirst() else { return String(segment) }
            return PercentEncoding.encode(value, keeping: PercentEncoding.unreserved)
        }.joined(separator: "/")
    }
}
