import FixtureFiles
import StubModel
import StubdEngine

/// `/__stubd/routes`: list, add, replace and remove runtime routes (same JSON as fixture files).
struct RoutesAdmin {
    let admin: StubAdmin

    func list(session: SessionID?) -> PreparedReply {
        let routes = admin.routes(session: session).map { entry -> JSONValue in
            var members: [(key: String, value: JSONValue)] = [
                ("id", .string(entry.route.id.description)),
                ("origin", .string(entry.route.id.origin == .fixture ? "fixture" : "runtime")),
            ]
            if let session = entry.session { members.append(("session", .string(session.rawValue))) }
            members += [
                ("source", .string(entry.route.fixture.source)),
                ("answers", .string(entry.route.outcomeLabel)),
                ("hits", AdminReply.number(entry.route.hits)),
                ("route", FixtureWriter.route(entry.route.fixture)),
            ]
            return .object(members)
        }
        return AdminReply.json(.object([("routes", .array(routes))]))
    }

    func add(_ body: [UInt8], session: SessionID?) -> PreparedReply {
        let fixtures: [Fixture]
        switch parse(body, label: "POST /__stubd/routes") {
        case .success(let parsed): fixtures = parsed
        case .failure(let failure): return failure.reply
        }
        do {
            let ids = try admin.add(fixtures, session: session)
            return AdminReply.json(.object([("added", .array(ids.map { .string($0.description) }))]), status: 201)
        } catch {
            return AdminReply.error("the routes conflict", status: 409, problems: [error.description])
        }
    }

    func replace(id text: String, body: [UInt8]) -> PreparedReply {
        guard let id = RouteID(text) else { return Self.unknown(text) }
        let fixtures: [Fixture]
        switch parse(body, label: "PUT /__stubd/routes/\(text)") {
        case .success(let parsed): fixtures = parsed
        case .failure(let failure): return failure.reply
        }
        guard fixtures.count == 1 else { return AdminReply.error("PUT takes exactly one route object", status: 400) }
        do {
            try admin.replace(id: id, with: fixtures[0])
            return AdminReply.json(.object([("replaced", .string(id.description))]))
        } catch {
            return Self.reply(for: error)
        }
    }

    func remove(id text: String) -> PreparedReply {
        guard let id = RouteID(text) else { return Self.unknown(text) }
        do {
            try admin.remove(id: id)
            return AdminReply.json(.object([("removed", .string(id.description))]))
        } catch {
            return Self.reply(for: error)
        }
    }

    func removeAll(session: SessionID?) -> PreparedReply {
        AdminReply.json(.object([("removed", AdminReply.number(admin.removeRoutes(session: session)))]))
    }

    private static func unknown(_ text: String) -> PreparedReply {
        AdminReply.error("no route has id \(text); ids look like r12 (runtime) or f3 (fixture): list them with GET /__stubd/routes",
                         status: 404)
    }

    static func reply(for error: StoreError) -> PreparedReply {
        switch error {
        case .unknownRoute: return AdminReply.error(error.description, status: 404)
        case .fixtureRoute: return AdminReply.error(error.description, status: 409)
        case .invalid: return AdminReply.error("the route conflicts", status: 409, problems: [error.description])
        }
    }

    /// Routes from a request body in the fixture format; `bodyFile` is refused (runtime routes
    /// carry their bodies inline).
    private func parse(_ body: [UInt8], label: String) -> Result<[Fixture], ParseFailure> {
        let reader = FixtureReader(file: label) { path throws(FixtureReader.FixtureProblem) in
            throw FixtureReader.FixtureProblem("\"\(path)\": bodyFile is for fixture files; inline the body as json, text or base64")
        }
        do {
            return .success(try reader.read(body))
        } catch {
            return .failure(ParseFailure(reply: AdminReply.error("the route is not valid", status: 400, problems: [error.description])))
        }
    }

    struct ParseFailure: Error {
        let reply: PreparedReply
    }
}
