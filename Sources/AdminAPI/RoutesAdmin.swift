import AdminContract
import FixtureFiles
import StubModel
import StubServer
import StubdEngine

/// `/__stubd/routes`: list, add, replace and remove runtime routes (same JSON as fixture files),
/// and turn any route off or on for a session.
/// Changes are read and applied on the state's change queue (`SessionStore.change`), never on a
/// serving loop.
struct RoutesAdmin {
    let state: SessionStore

    func list(session: SessionID?) -> RouteList {
        let off = state.switchedOffRoutes(session: session)
        return RouteList(state.routes(session: session).map { entry in
            var listed = RouteEntry()
            listed.id = entry.route.id.description
            listed.origin = entry.route.id.origin == .fixture ? "fixture" : "runtime"
            listed.session = entry.session?.rawValue
            listed.source = entry.route.fixture.source
            listed.answers = entry.route.outcomeLabel
            listed.hits = entry.route.hits
            listed.route = FixtureWriter.route(entry.route.fixture)
            listed.disabled = off.contains(entry.route.id)
            return listed
        })
    }

    func switchRoute(id text: String, off: Bool, session: SessionID?) throws(AdminRefusal) -> SwitchedRoute {
        guard let id = RouteID(text) else { throw Self.unknown(text) }
        do {
            try state.switchRoute(id: id, off: off, session: session)
            return SwitchedRoute(id: id.description, disabled: off)
        } catch {
            throw Self.refusal(for: error)
        }
    }

    func add(_ document: JSONBody, session: SessionID?) throws(AdminRefusal) -> AddedRoutes {
        let fixtures = try parse(document, label: "POST /__stubd/routes")
        do {
            return AddedRoutes(try state.add(fixtures, session: session).map(\.description))
        } catch {
            throw AdminRefusal("the routes conflict", status: 409, problems: [error.description])
        }
    }

    func replace(id text: String, with document: JSONBody) throws(AdminRefusal) -> ReplacedRoute {
        guard let id = RouteID(text) else { throw Self.unknown(text) }
        let fixtures = try parse(document, label: "PUT /__stubd/routes/\(text)")
        guard fixtures.count == 1 else { throw AdminRefusal("PUT takes exactly one route object") }
        do {
            try state.replace(id: id, with: fixtures[0])
            return ReplacedRoute(id.description)
        } catch {
            throw Self.refusal(for: error)
        }
    }

    func remove(id text: String) throws(AdminRefusal) -> RemovedRoute {
        guard let id = RouteID(text) else { throw Self.unknown(text) }
        do {
            try state.remove(id: id)
            return RemovedRoute(id.description)
        } catch {
            throw Self.refusal(for: error)
        }
    }

    func removeAll(session: SessionID?) -> RemovedCount {
        RemovedCount(state.removeRoutes(session: session))
    }

    private static func unknown(_ text: String) -> AdminRefusal {
        AdminRefusal("no route has id \(text); ids look like r12 (runtime) or f3 (fixture): list them with GET /__stubd/routes", status: 404)
    }

    static func refusal(for error: StoreError) -> AdminRefusal {
        switch error {
        case .unknownRoute: return AdminRefusal(error.description, status: 404)
        case .fixtureRoute: return AdminRefusal(error.description, status: 409)
        case .invalid: return AdminRefusal("the route conflicts", status: 409, problems: [error.description])
        }
    }

    /// Routes from a document in the fixture format; `bodyFile` is refused (runtime routes carry
    /// their bodies inline).
    private func parse(_ document: JSONBody, label: String) throws(AdminRefusal) -> [Fixture] {
        let reader = FixtureReader(file: label) { path throws(FixtureReader.FixtureProblem) in
            throw FixtureReader.FixtureProblem("\"\(path)\": bodyFile is for fixture files; inline the body as json, text or base64")
        }
        do {
            return try reader.read(document: document.value)
        } catch {
            throw AdminRefusal("the route is not valid", problems: [error.description])
        }
    }
}
