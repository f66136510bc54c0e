@testable import StubServer
import StubModel
import StubdTestSupport

/// A route named `name` compiled alone, for exchanges made in tests.
func compiledRoute(_ name: String, id: RouteID = RouteID(.fixture, 0)) -> Route {
    Route(fixture: route("/" + name, name: name, outcome: ok(name)), id: id, order: id.number)
}
