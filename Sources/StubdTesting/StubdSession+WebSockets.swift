import Foundation
import AdminContract
import StubModel

extension StubdSession {
    /// Sends `text` to this session's open WebSocket conversations on `path` (all of them
    /// without), at the moment the test wants — "a new chat message arrives". Returns how many
    /// conversations it reached.
    @discardableResult
    public func send(toWebSocket path: String? = nil, text: String) async throws -> Int {
        try await admin.call(AdminContract.sendWebSocket, body: WebSocketPush(path: path, message: .text(text))).count
    }

    /// Sends a JSON value (dictionaries, arrays, strings, numbers, booleans, NSNull) as a text message.
    @discardableResult
    public func send(toWebSocket path: String? = nil, json: Any) async throws -> Int {
        try await admin.call(AdminContract.sendWebSocket, body: WebSocketPush(path: path, message: .text(JSONWriter.write(try Self.json(json), pretty: false)))).count
    }

    /// Sends `text` once per open scope of this session's conversations on `path` — each open
    /// GraphQL subscription, say — with `{{scope}}` in it replaced by the scope's name (the id the
    /// client drew). Returns how many messages went.
    @discardableResult
    public func send(toEachScopeOf path: String? = nil, text: String) async throws -> Int {
        try await admin.call(AdminContract.sendWebSocket, body: WebSocketPush(path: path, message: .text(text), eachScope: true)).count
    }

    /// This session's open WebSocket conversations.
    public func webSockets() async throws -> [WebSocketList.Entry] {
        try await admin.call(AdminContract.webSockets).open
    }

    /// Closes this session's open WebSocket conversations on `path` (all without) with `code`.
    @discardableResult
    public func closeWebSockets(path: String? = nil, code: Int = 1000, reason: String = "") async throws -> Int {
        try await admin.call(AdminContract.closeWebSockets, body: WebSocketCloseRequest(path: path, code: code, reason: reason)).count
    }
}
