import Foundation
import StubModel
import StubdEngine
import Synchronization

/// The open WebSocket conversations, so a test can push a message to them, list them or close
/// them (`/__stubd/websockets`, the kit's `session.send(toWebSocket:)`) — always within the
/// session that opened them.
public final class WebSocketRegistry: Sendable {
    /// One open conversation.
    public struct Entry: Sendable {
        /// A number for this server's lifetime.
        public let id: Int
        /// The route that accepted it.
        public let route: String
        /// The upgrade request's path.
        public let path: String
        /// The session it belongs to.
        public let session: SessionID?
        /// When it opened.
        public let opened: Date
        let connection: WebSocketConnection
        let player: WebSocketPlayer
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var next = 1
    }

    private let state = Mutex(State())

    /// An empty registry.
    public init() {}

    func add(route: String, path: String, session: SessionID?, connection: WebSocketConnection, player: WebSocketPlayer) -> Int {
        state.withLock { state in
            let id = state.next
            state.next += 1
            state.entries[id] = Entry(id: id, route: route, path: path, session: session, opened: Date(), connection: connection, player: player)
            return id
        }
    }

    func remove(_ id: Int) {
        state.withLock { _ = $0.entries.removeValue(forKey: id) }
    }

    /// The session's open conversations (all of them without a session filter is never given:
    /// `nil` is the conversations opened without a session), oldest first, those on `path` only
    /// when given (a path ending in `*` is a prefix).
    public func open(session: SessionID?, path: String? = nil) -> [Entry] {
        state.withLock { state in
            state.entries.values.filter { $0.session == session && Self.path($0.path, matches: path) }.sorted { $0.id < $1.id }
        }
    }

    /// Sends `message` to the session's conversations (on `path`); how many.
    public func send(_ message: WebSocketMessage, session: SessionID?, path: String?) -> Int {
        let targets = open(session: session, path: path)
        for entry in targets { entry.player.push(message, on: entry.connection) }
        return targets.count
    }

    /// Closes the session's conversations (on `path`) with `code`; how many.
    public func close(code: Int, reason: String, session: SessionID?, path: String?) -> Int {
        let targets = open(session: session, path: path)
        for entry in targets { entry.connection.close(code: code, reason: reason) }
        return targets.count
    }

    /// Every conversation, when the server's state resets (a session's, or all).
    public func closeAll(session: SessionID?) {
        for entry in state.withLock({ Array($0.entries.values) }) where session == nil || entry.session == session {
            entry.connection.close(code: 1001, reason: "stubd reset")
        }
    }

    private static func path(_ path: String, matches wanted: String?) -> Bool {
        guard let wanted else { return true }
        if wanted.hasSuffix("*") { return path.hasPrefix(String(wanted.dropLast())) }
        return path == wanted
    }
}
