public import StubModel

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
