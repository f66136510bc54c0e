public import StubModel

/// One route as `GET /__stubd/routes` lists it. Each wire member is its property here and one
/// line of `wire` (see `RequestRecord`).
public struct RouteEntry: WireBody, Equatable {
    /// `f3` (fixture) or `r12` (runtime).
    public var id = ""
    /// `fixture` or `runtime`.
    public var origin = ""
    /// The session a runtime route belongs to.
    public var session: String?
    /// Where it came from (file and position, or the session).
    public var source = ""
    /// Its status or fault, or the sequence of them (`500,200`).
    public var answers = ""
    /// Requests it has answered.
    public var hits = 0
    /// The route in the fixture format.
    public var route: JSONValue = .null
    /// Turned off for the session asking (or for every session): requests pass it by.
    public var disabled = false

    /// The wire members in the order sent.
    public static let wire = WireTable<RouteEntry>("a route the session sees", [
        .member("id", \.id, "f3 (fixture) or r12 (runtime)"),
        .member("origin", \.origin, "fixture or runtime"),
        .member("session", \.session, "the session a runtime route belongs to"),
        .member("source", \.source, "where it came from: file and position, or the session"),
        .member("answers", \.answers, "its status or fault, or the sequence of them (500,200)"),
        .member("hits", \.hits, "requests it has answered"),
        .member("route", \.route, "the route in the fixture format"),
        .flag("disabled", \.disabled, "turned off for the session asking: requests pass it by"),
    ])

    /// An empty entry, filled member by member.
    public init() {}
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
