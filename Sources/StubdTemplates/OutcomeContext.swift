package import StubModel
package import StubdEngine

/// The route that answers, as an answer kind may know it: kinds sit below the serving core and
/// cannot name its `Route`, which conforms.
package protocol AnsweringRoute: AnyObject, Sendable {
    /// Its handle (`{{counter}}` counts per route).
    var id: RouteID { get }
    /// Its name, for `{{request.routeName}}` and for errors that name the route.
    var name: String { get }
    /// Its path template, when the path has `{name}` parameters (`{{request.pathParams.name}}`).
    var pathTemplate: PathTemplate? { get }
}

/// Everything an answer kind reads to answer one request, in one value: the request, the route,
/// the session, and the state handles the session's answers read and change.
package struct OutcomeContext {
    /// The request being answered.
    package let request: IncomingRequest
    /// The route answering it.
    package let route: any AnsweringRoute
    /// Its session (nil: the shared one).
    package let session: SessionID?
    /// Counters, clocks, seeds and saved values.
    package let state: TemplateState
    /// Where templates read a collection's items.
    package let collections: any CollectionItemsSource

    /// The context of `request` answered by `route`.
    package init(request: IncomingRequest, route: any AnsweringRoute, session: SessionID?, state: TemplateState,
                 collections: any CollectionItemsSource) {
        self.request = request
        self.route = route
        self.session = session
        self.state = state
        self.collections = collections
    }

    /// The same context for another request (a WebSocket message read as the upgrade request
    /// with the message as its body).
    package func reading(_ request: IncomingRequest) -> OutcomeContext {
        OutcomeContext(request: request, route: route, session: session, state: state, collections: collections)
    }
}
