import AdminContract
import StubModel
import StubServer
import StubdWebSockets

/// `/__stubd/websockets`: a test's hand in the session's open conversations — list them, push a
/// message ("a new chat message arrives" at the moment the test wants), close them.
struct WebSocketsAdmin {
    let state: SessionStore

    func list(session: SessionID?) -> WebSocketList {
        WebSocketList(open: state.webSockets.open(session: session).map {
            WebSocketList.Entry(id: $0.id, route: $0.route, path: $0.path, opened: RequestsAdmin.timestamp($0.opened), scopes: $0.scopes)
        })
    }

    func send(_ push: WebSocketPush, session: SessionID?) -> WebSocketReach {
        WebSocketReach(count: state.webSockets.send(push.message, session: session, path: push.path, eachScope: push.eachScope))
    }

    func close(_ request: WebSocketCloseRequest, session: SessionID?) -> WebSocketReach {
        WebSocketReach(count: state.webSockets.close(code: request.code, reason: request.reason, session: session, path: request.path))
    }
}
