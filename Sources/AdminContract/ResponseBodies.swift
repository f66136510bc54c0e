public import StubModel

/// `GET /__stubd/health`.
public struct Health: AdminBody {
    /// Routes from fixture files or targets.
    public let fixtureRoutes: Int
    /// Runtime routes of every session.
    public let runtimeRoutes: Int
    /// Journal entries held, and kept at most.
    public let journalSize: Int
    /// How many entries the journal keeps at most (`--journal-size`).
    public let journalCapacity: Int
    /// A recording under way: its upstream, folder and the files written so far.
    public let recording: (upstream: String, out: String, files: [String])?

    /// A health answer.
    public init(fixtureRoutes: Int, runtimeRoutes: Int, journalSize: Int, journalCapacity: Int,
                recording: (upstream: String, out: String, files: [String])? = nil) {
        self.fixtureRoutes = fixtureRoutes
        self.runtimeRoutes = runtimeRoutes
        self.journalSize = journalSize
        self.journalCapacity = journalCapacity
        self.recording = recording
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected the health object")
        fixtureRoutes = try fields.int("fixtureRoutes")
        runtimeRoutes = try fields.int("runtimeRoutes")
        let journal = try JSONFields(fields.raw("journal") ?? .null, usage: "journal: expected an object")
        journalSize = try journal.int("size")
        journalCapacity = try journal.int("capacity")
        if let value = fields.raw("recording") {
            let recording = try JSONFields(value, usage: "recording: expected an object")
            self.recording = (try recording.string("upstream"), try recording.string("out"), try recording.strings("files"))
        } else {
            recording = nil
        }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("status", .string("ok")), ("fixtureRoutes", .int(fixtureRoutes)), ("runtimeRoutes", .int(runtimeRoutes)),
            ("journal", .object([("size", .int(journalSize)), ("capacity", .int(journalCapacity))])),
        ]
        if let recording {
            members.append(("recording", .object([("upstream", .string(recording.upstream)), ("out", .string(recording.out)),
                                                  ("files", .array(recording.files.map { .string($0) }))])))
        }
        return .object(members)
    }
}

/// `GET /__stubd/ready`: nothing but that the server serves (it is open to anyone).
public struct Readiness: AdminBody {
    /// Ready.
    public init() {}

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let status = try JSONFields(json, usage: "expected the readiness object").string("status")
        guard status == "ready" else { throw AdminBodyProblem("status: expected \"ready\", got \"\(status)\"") }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("status", .string("ready"))]) }
}

/// `POST /__stubd/reset` and `POST /__stubd/scenarios/reset`.
public struct ResetDone: AdminBody {
    /// Runtime routes removed (a whole reset only).
    public let removedRoutes: Int?

    /// A reset that removed `removedRoutes`.
    public init(removedRoutes: Int?) {
        self.removedRoutes = removedRoutes
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        removedRoutes = try JSONFields(json, usage: "expected the reset object").optionalInt("removedRoutes")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        .object([("reset", .bool(true))] + (removedRoutes.map { [("removedRoutes", .int($0))] } ?? []))
    }
}

/// One route as `GET /__stubd/routes` lists it.
public struct RouteEntry: AdminBody {
    /// `f3` (fixture) or `r12` (runtime).
    public let id: String
    /// `fixture` or `runtime`.
    public let origin: String
    /// The session a runtime route belongs to.
    public let session: String?
    /// Where it came from (file and position, or the session).
    public let source: String
    /// Its status or fault, or the sequence of them (`500,200`).
    public let answers: String
    /// Requests it has answered.
    public let hits: Int
    /// The route in the fixture format.
    public let route: JSONValue
    /// Turned off for the session asking (or for every session): requests pass it by.
    public let disabled: Bool

    /// A listed route.
    public init(id: String, origin: String, session: String?, source: String, answers: String, hits: Int, route: JSONValue, disabled: Bool = false) {
        (self.id, self.origin, self.session, self.source, self.answers, self.hits, self.route) = (id, origin, session, source, answers, hits, route)
        self.disabled = disabled
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected a route entry")
        id = try fields.string("id")
        origin = try fields.string("origin")
        session = try fields.optionalString("session")
        source = try fields.string("source")
        answers = try fields.string("answers")
        hits = try fields.int("hits")
        route = fields.raw("route") ?? .null
        disabled = try fields.bool("disabled", absent: false)
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(id)), ("origin", .string(origin))]
        if let session { members.append(("session", .string(session))) }
        members += [("source", .string(source)), ("answers", .string(answers)), ("hits", .int(hits)), ("route", route)]
        if disabled { members.append(("disabled", .bool(true))) }
        return .object(members)
    }
}

/// `GET /__stubd/routes`.
public struct RouteList: AdminBody {
    /// In lookup order.
    public let routes: [RouteEntry]

    /// These routes.
    public init(_ routes: [RouteEntry]) {
        self.routes = routes
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        routes = try JSONFields(json, usage: "expected the routes object").array("routes").map { item throws(AdminBodyProblem) in try RouteEntry(json: item) }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("routes", .array(routes.map(\.json)))]) }
}

/// `POST /__stubd/routes`: the new routes' ids.
public struct AddedRoutes: AdminBody {
    /// `r12`, …
    public let added: [String]

    /// These ids.
    public init(_ added: [String]) {
        self.added = added
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        added = try JSONFields(json, usage: "expected the added object").strings("added")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("added", .array(added.map { .string($0) }))]) }
}

/// `PUT /__stubd/routes/{id}`.
public struct ReplacedRoute: AdminBody {
    /// The id replaced.
    public let replaced: String

    /// Replaced `id`.
    public init(_ replaced: String) {
        self.replaced = replaced
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        replaced = try JSONFields(json, usage: "expected the replaced object").string("replaced")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("replaced", .string(replaced))]) }
}

/// `DELETE /__stubd/routes/{id}`.
public struct RemovedRoute: AdminBody {
    /// The id removed.
    public let removed: String

    /// Removed `id`.
    public init(_ removed: String) {
        self.removed = removed
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        removed = try JSONFields(json, usage: "expected the removed object").string("removed")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("removed", .string(removed))]) }
}

/// `POST /__stubd/routes/{id}/disable` and `…/enable`: the route and whether it is now off.
public struct SwitchedRoute: AdminBody {
    /// The route's id.
    public let id: String
    /// Whether requests of the session now pass it by.
    public let disabled: Bool

    /// Route `id`, now off (or on).
    public init(id: String, disabled: Bool) {
        (self.id, self.disabled) = (id, disabled)
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected the switched route object")
        id = try fields.string("id")
        disabled = try fields.bool("disabled")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("id", .string(id)), ("disabled", .bool(disabled))]) }
}

/// `DELETE /__stubd/routes`: how many.
public struct RemovedCount: AdminBody {
    /// Routes removed.
    public let removed: Int

    /// `removed` routes.
    public init(_ removed: Int) {
        self.removed = removed
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        removed = try JSONFields(json, usage: "expected the removed object").int("removed")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("removed", .int(removed))]) }
}

/// One request as the journal lists it (secrets hidden).
public struct RequestRecord: AdminBody {
    /// Its number in the journal.
    public let sequence: Int
    /// When it arrived: `2026-11-24T13:04:12.345Z`.
    public let time: String
    /// Method, path and query as sent, decoded path.
    public let method: String
    /// The target as sent: path and query, percent-encoded.
    public let url: String
    /// The path, percent-decoded.
    public let path: String
    /// The scheme and host it was for, when it came through the forward proxy
    /// (`https://api.example.com`); absent on the direct ports.
    public let server: String?
    /// Its `X-Stubd-Session`.
    public let session: String?
    /// The connection it came on and its place there.
    public let connection: Int?
    /// Which request of that connection it was (1: the first).
    public let connectionRequest: Int?
    /// Headers in order.
    public let headers: [NameValue]
    /// The body as text, or as base64 when it is not UTF-8; the full size.
    public let body: String?
    /// The body as base64, when it is not UTF-8 text.
    public let bodyBase64: String?
    /// The body's whole size in bytes (the shown body may be cut).
    public let bodySize: Int
    /// Why no body is shown.
    public let bodyNote: String?
    /// Whether a route answered, which, and, for a miss, the closest route.
    public let matched: Bool
    /// The id of the route that answered.
    public let routeID: String?
    /// The name of the route that answered.
    public let route: String?
    /// For a miss, the closest route and why it missed — or, for a miss forwarded to the upstream
    /// (`--proxy-unmatched`, a recording), `proxied to <upstream>`.
    public let nearMiss: String?
    /// Whether the miss was forwarded to the upstream and answered from there (a recording's).
    public var forwarded: Bool { !matched && nearMiss?.hasPrefix(Self.forwardedPrefix) == true }
    /// How `nearMiss` begins for a forwarded miss.
    public static let forwardedPrefix = "proxied to "
    /// The status, or the fault.
    public let status: Int?
    /// The fault sent instead of a response (`reset`, `empty`, …).
    public let fault: String?
    /// Milliseconds from arrival to the reply.
    public let latencyMs: Double
    /// The response sent: status, headers, the first body bytes (as text or base64), the size.
    public let response: JSONValue?
    /// True when it is the client's silent re-send of the previous request on its route, which
    /// got a fault that sends no byte (`"resend": true`; absent otherwise).
    public let resend: Bool
    /// How a fault that sends no byte was sent when not as written: `"cutShort"` for a sequence
    /// or scenario step — a response cut short, which no client re-sends (absent otherwise).
    public let faultSentAs: String?
    /// The `faultSentAs` of a fault step sent as a response cut short.
    public static let cutShort = "cutShort"

    /// A record of these values.
    public init(sequence: Int, time: String, method: String, url: String, path: String, session: String?, connection: Int?,
                connectionRequest: Int?, headers: [NameValue], body: String?, bodyBase64: String?, bodySize: Int, bodyNote: String?,
                matched: Bool, routeID: String?, route: String?, nearMiss: String?, status: Int?, fault: String?, latencyMs: Double,
                response: JSONValue?, resend: Bool = false, faultSentAs: String? = nil, server: String? = nil) {
        self.server = server
        self.sequence = sequence
        self.time = time
        self.method = method
        self.url = url
        self.path = path
        self.session = session
        self.connection = connection
        self.connectionRequest = connectionRequest
        self.headers = headers
        self.body = body
        self.bodyBase64 = bodyBase64
        self.bodySize = bodySize
        self.bodyNote = bodyNote
        self.matched = matched
        self.routeID = routeID
        self.route = route
        self.nearMiss = nearMiss
        self.status = status
        self.fault = fault
        self.latencyMs = latencyMs
        self.response = response
        self.resend = resend
        self.faultSentAs = faultSentAs
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected a request record")
        sequence = try fields.int("sequence")
        time = try fields.string("time")
        method = try fields.string("method")
        url = try fields.string("url")
        path = try fields.string("path")
        server = try fields.optionalString("server")
        session = try fields.optionalString("session")
        connection = try fields.optionalInt("connection")
        connectionRequest = try fields.optionalInt("connectionRequest")
        headers = try fields.array("headers").map { pair throws(AdminBodyProblem) -> NameValue in
            guard case .array(let parts) = pair, parts.count == 2, case .string(let name) = parts[0], case .string(let value) = parts[1] else {
                throw AdminBodyProblem("headers: expected [name, value] pairs")
            }
            return NameValue(name, value)
        }
        body = try fields.optionalString("body")
        bodyBase64 = try fields.optionalString("bodyBase64")
        bodySize = try fields.int("bodySize")
        bodyNote = try fields.optionalString("bodyNote")
        matched = try fields.bool("matched")
        routeID = try fields.optionalString("routeId")
        route = try fields.optionalString("route")
        nearMiss = try fields.optionalString("nearMiss")
        status = try fields.optionalInt("status")
        fault = try fields.optionalString("fault")
        latencyMs = try fields.double("latencyMs")
        response = fields.raw("response")
        if case .bool(let flag)? = fields.raw("resend") { resend = flag } else { resend = false }
        faultSentAs = try fields.optionalString("faultSentAs")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("sequence", .int(sequence)), ("time", .string(time)), ("method", .string(method)), ("url", .string(url)), ("path", .string(path)),
        ]
        if let server { members.append(("server", .string(server))) }
        if let session { members.append(("session", .string(session))) }
        if let connection { members.append(("connection", .int(connection))) }
        if let connectionRequest { members.append(("connectionRequest", .int(connectionRequest))) }
        members.append(("headers", .array(headers.map { .array([.string($0.name), .string($0.value)]) })))
        if let body { members.append(("body", .string(body))) }
        if let bodyBase64 { members.append(("bodyBase64", .string(bodyBase64))) }
        members.append(("bodySize", .int(bodySize)))
        if let bodyNote { members.append(("bodyNote", .string(bodyNote))) }
        members.append(("matched", .bool(matched)))
        if let routeID { members.append(("routeId", .string(routeID))) }
        if let route { members.append(("route", .string(route))) }
        if let nearMiss { members.append(("nearMiss", .string(nearMiss))) }
        if let status { members.append(("status", .int(status))) }
        if let fault { members.append(("fault", .string(fault))) }
        if let faultSentAs { members.append(("faultSentAs", .string(faultSentAs))) }
        members.append(("latencyMs", .number(latencyMs)))
        if let response { members.append(("response", response)) }
        if resend { members.append(("resend", .bool(true))) }
        return .object(members)
    }
}

/// `GET /__stubd/requests`.
public struct RequestList: AdminBody {
    /// Oldest first.
    public let requests: [RequestRecord]

    /// These records.
    public init(_ requests: [RequestRecord]) {
        self.requests = requests
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        requests = try JSONFields(json, usage: "expected the requests object").array("requests")
            .map { item throws(AdminBodyProblem) in try RequestRecord(json: item) }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("count", .int(requests.count)), ("requests", .array(requests.map(\.json)))]) }
}

/// `GET /__stubd/requests/count`.
public struct RequestCount: AdminBody {
    /// How many match.
    public let count: Int

    /// `count` requests.
    public init(_ count: Int) {
        self.count = count
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        count = try JSONFields(json, usage: "expected the count object").int("count")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("count", .int(count))]) }
}

/// `DELETE /__stubd/requests`, `DELETE /__stubd/webhooks`.
public struct Cleared: AdminBody {
    /// Cleared.
    public init() {}

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        _ = try JSONFields(json, usage: "expected the cleared object").bool("cleared")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("cleared", .bool(true))]) }
}

/// Where one sequence stands.
public struct SequencePosition: AdminBody {
    /// The route's id and name.
    public let route: String
    /// Its name.
    public let name: String
    /// Answers served, answers it has, and what the next is (`200`, `fault:reset`).
    public let served: Int
    /// How many answers the sequence has.
    public let steps: Int
    /// What the next request gets (`200`, `fault:reset`, `200 stream`).
    public let next: String

    /// A position.
    public init(route: String, name: String, served: Int, steps: Int, next: String) {
        (self.route, self.name, self.served, self.steps, self.next) = (route, name, served, steps, next)
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected a sequence")
        route = try fields.string("route")
        name = try fields.string("name")
        served = try fields.int("served")
        steps = try fields.int("steps")
        next = try fields.string("next")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        .object([("route", .string(route)), ("name", .string(name)), ("served", .int(served)), ("steps", .int(steps)), ("next", .string(next))])
    }
}

/// `GET /__stubd/scenarios`.
public struct ScenarioStates: AdminBody {
    /// Scenario name → state.
    public let scenarios: [String: String]
    /// Sequences and where each stands.
    public let sequences: [SequencePosition]

    /// These states.
    public init(scenarios: [String: String], sequences: [SequencePosition]) {
        self.scenarios = scenarios
        self.sequences = sequences
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected the scenarios object")
        guard case .object(let members)? = fields.raw("scenarios") else { throw AdminBodyProblem("scenarios: expected an object") }
        var scenarios: [String: String] = [:]
        for member in members {
            guard case .string(let state) = member.value else { throw AdminBodyProblem("scenarios.\(member.key): expected a string") }
            scenarios[member.key] = state
        }
        self.scenarios = scenarios
        sequences = fields.raw("sequences") == nil ? [] : try fields.array("sequences").map { item throws(AdminBodyProblem) in try SequencePosition(json: item) }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        .object([("scenarios", .object(scenarios.keys.sorted().map { ($0, .string(scenarios[$0]!)) })), ("sequences", .array(sequences.map(\.json)))])
    }
}

/// A scenario set to a state: `{"NAME": "STATE"}`.
public struct ScenarioSet: AdminBody {
    /// The scenario's name.
    public let name: String
    /// The state it is in now.
    public let state: String

    /// `name` set to `state`.
    public init(name: String, state: String) {
        self.name = name
        self.state = state
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        guard case .object(let members) = json, members.count == 1, case .string(let state) = members[0].value else {
            throw AdminBodyProblem(#"expected {"NAME": "STATE"}"#)
        }
        name = members[0].key
        self.state = state
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([(name, .string(state))]) }
}

/// The time templates see: `{"now": "2026-01-01T09:00:00Z"}`, or `"real time"`.
public struct ClockReading: AdminBody {
    /// The time as ISO 8601 in UTC, or `real time` when the clock is not fixed.
    public let now: String

    /// A reading of `now`.
    public init(now: String) {
        self.now = now
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        now = try JSONFields(json, usage: "expected the clock object").string("now")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("now", .string(now))]) }
}

/// The random seed in force: `{"seed": 42}` or `{"seed": null}`.
public struct SeedReading: AdminBody {
    /// The seed, or nil when randomness is not fixed.
    public let seed: UInt64?

    /// A reading of `seed`.
    public init(seed: UInt64?) {
        self.seed = seed
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        seed = try SeedSetting(json: json).seed
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { SeedSetting(seed: seed).json }
}

/// One collection the session sees.
public struct CollectionSummary: AdminBody {
    /// Its name, as templates and the admin API name it.
    public let name: String
    /// The path its routes serve.
    public let path: String
    /// How many items the session sees.
    public let count: Int

    /// A summary.
    public init(name: String, path: String, count: Int) {
        (self.name, self.path, self.count) = (name, path, count)
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected a collection")
        name = try fields.string("name")
        path = try fields.string("path")
        count = try fields.int("count")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("name", .string(name)), ("path", .string(path)), ("count", .int(count))]) }
}

/// `GET /__stubd/collections`.
public struct CollectionList: AdminBody {
    /// Every collection the session sees.
    public let collections: [CollectionSummary]

    /// These collections.
    public init(_ collections: [CollectionSummary]) {
        self.collections = collections
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        collections = try JSONFields(json, usage: "expected the collections object").array("collections")
            .map { item throws(AdminBodyProblem) in try CollectionSummary(json: item) }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("collections", .array(collections.map(\.json)))]) }
}

/// `GET /__stubd/collections/{name}`.
public struct CollectionContents: AdminBody {
    /// The collection's name.
    public let name: String
    /// The session's items, in order.
    public let items: [JSONValue]

    /// `name`'s items.
    public init(name: String, items: [JSONValue]) {
        self.name = name
        self.items = items
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected the collection object")
        name = try fields.string("name")
        items = try fields.array("items")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("name", .string(name)), ("items", .array(items))]) }
}

/// A collection's items replaced: `{"name": "users", "count": 3}`.
public struct CollectionCount: AdminBody {
    /// The collection's name.
    public let name: String
    /// How many items it holds now.
    public let count: Int

    /// `name` holds `count` items.
    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected the collection count")
        name = try fields.string("name")
        count = try fields.int("count")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("name", .string(name)), ("count", .int(count))]) }
}

/// One webhook sent and how it ended.
public struct WebhookRecord: AdminBody {
    /// Increasing number, unique per server.
    public let sequence: Int
    /// When it ended (ISO 8601, UTC).
    public let time: String
    /// The route whose answer sent it.
    public let route: String
    /// The method it was sent with.
    public let method: String
    /// The URL, its query's secrets hidden.
    public let url: String
    /// Attempts made (retries included).
    public let attempts: Int
    /// The session of the request that caused it.
    public let session: String?
    /// The last answer's status, or why it failed.
    public let status: Int?
    /// Why it failed, when it did.
    public let error: String?

    /// A record of these values.
    public init(sequence: Int, time: String, route: String, method: String, url: String, attempts: Int, session: String?, status: Int?, error: String?) {
        (self.sequence, self.time, self.route, self.method, self.url) = (sequence, time, route, method, url)
        (self.attempts, self.session, self.status, self.error) = (attempts, session, status, error)
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected a webhook record")
        sequence = try fields.int("sequence")
        time = try fields.string("time")
        route = try fields.string("route")
        method = try fields.string("method")
        url = try fields.string("url")
        attempts = try fields.int("attempts")
        session = try fields.optionalString("session")
        status = try fields.optionalInt("status")
        error = try fields.optionalString("error")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("sequence", .int(sequence)), ("time", .string(time)), ("route", .string(route)), ("method", .string(method)),
            ("url", .string(url)), ("attempts", .int(attempts)),
        ]
        if let session { members.append(("session", .string(session))) }
        if let status { members.append(("status", .int(status))) }
        if let error { members.append(("error", .string(error))) }
        return .object(members)
    }
}

/// `GET /__stubd/webhooks`.
public struct WebhookList: AdminBody {
    /// The webhooks sent, oldest first.
    public let webhooks: [WebhookRecord]

    /// These records.
    public init(_ webhooks: [WebhookRecord]) {
        self.webhooks = webhooks
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        webhooks = try JSONFields(json, usage: "expected the webhooks object").array("webhooks")
            .map { item throws(AdminBodyProblem) in try WebhookRecord(json: item) }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("webhooks", .array(webhooks.map(\.json)))]) }
}

/// A recording started: `{"recording": true, "upstream", "out", "warnings": […]}`.
public struct RecordingStarted: AdminBody {
    /// The upstream misses are forwarded to.
    public let upstream: String
    /// The folder fixtures are written into.
    public let out: String
    /// What the recorder could not honour (say, an unwritable folder), one sentence each.
    public let warnings: [String]

    /// A started recording.
    public init(upstream: String, out: String, warnings: [String]) {
        (self.upstream, self.out, self.warnings) = (upstream, out, warnings)
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected the recording object")
        upstream = try fields.string("upstream")
        out = try fields.string("out")
        warnings = try fields.strings("warnings")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        .object([("recording", .bool(true)), ("upstream", .string(upstream)), ("out", .string(out)), ("warnings", .array(warnings.map { .string($0) }))])
    }
}

/// A fixture file the dashboard wrote: 201, `{"written": "PATH"}`.
public struct FixtureWritten: AdminBody {
    /// The file's path.
    public let path: String

    /// Written at `path`.
    public init(path: String) {
        self.path = path
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        path = try JSONFields(json, usage: "expected the written object").string("written")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("written", .string(path))]) }
}
