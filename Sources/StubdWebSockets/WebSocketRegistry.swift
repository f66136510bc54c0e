public import Foundation
public import StubModel
import StubdState
import StubdEngine
import Synchronization

/// An open conversation as the registry holds it: a scripted one (`WebSocketPlayer`) or one the
/// proxy relays (`WebSocketRelay`). Calls may come from any thread.
package protocol OpenWebSocket: AnyObject, Sendable {
    /// What the journal keeps of it, so far.
    var transcript: WebSocketTranscript { get }
    /// Sends a test's message to the client (noted as the server's).
    func push(_ message: WebSocketMessage)
    /// Closes the client's side cleanly.
    func close(code: Int, reason: String)
    /// Its open scopes (`WebSocketReply.scope`), oldest first.
    var openScopes: [String] { get }
    /// Sends `text` once per open scope, `{{scope}}` replaced by its name; how many were sent.
    func pushEachScope(_ text: String) -> Int
}

extension OpenWebSocket {
    /// A relayed conversation has no script, so no scopes.
    package var openScopes: [String] { [] }
    package func pushEachScope(_ text: String) -> Int { 0 }
}

/// The open WebSocket conversations, so a test can push a message to them, list them or close
/// them (`/__stubd/websockets`, the kit's `session.send(toWebSocket:)`) — always within the
/// session that opened them — and a live view can follow them message by message
/// (`addListener`, the dashboard's event stream).
public final class WebSocketRegistry: Sendable {
    /// One open conversation.
    public struct Entry: Sendable {
        /// A number for this server's lifetime.
        public let id: Int
        /// The route that accepted it (`proxied to …` for a relayed one).
        public let route: String
        /// The upgrade request's path.
        public let path: String
        /// The session it belongs to.
        public let session: SessionID?
        /// When it opened.
        public let opened: Date
        let conversation: any OpenWebSocket

        /// Its messages so far, as the journal will keep them.
        public var messages: [JSONValue] { conversation.transcript.messages }
        /// Its open scopes (a GraphQL subscription's id), oldest first.
        public var scopes: [String] { conversation.openScopes }
    }

    /// What a live view hears, on the thread where it happened (keep it quick).
    public enum Activity: Sendable {
        /// A conversation opened.
        case opened(Entry)
        /// A message passed (`{"from", "at", "text" | "base64", "size"}`, as the journal keeps it).
        case message(id: Int, session: SessionID?, JSONValue)
        /// A conversation ended (its journal entry follows).
        case closed(id: Int, session: SessionID?)
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var next = 1
    }

    private let state = Mutex(State())
    private let listeners = Mutex<(next: Int, all: [Int: @Sendable (Activity) -> Void])>((1, [:]))

    /// An empty registry.
    public init() {}

    package func add(route: String, path: String, session: SessionID?, conversation: any OpenWebSocket) -> Int {
        let entry = state.withLock { state in
            let id = state.next
            state.next += 1
            let entry = Entry(id: id, route: route, path: path, session: session, opened: Date(), conversation: conversation)
            state.entries[id] = entry
            return entry
        }
        let id = entry.id
        conversation.transcript.onNote { [weak self] note in self?.tell(.message(id: id, session: session, note)) }
        tell(.opened(entry))
        return id
    }

    package func remove(_ id: Int) {
        guard let entry = state.withLock({ $0.entries.removeValue(forKey: id) }) else { return }
        tell(.closed(id: id, session: entry.session))
    }

    /// Calls `listener` with every activity from now on, until `removeListener`.
    public func addListener(_ listener: @escaping @Sendable (Activity) -> Void) -> Int {
        listeners.withLock { listeners in
            let id = listeners.next
            listeners.next += 1
            listeners.all[id] = listener
            return id
        }
    }

    /// Stops calling a listener.
    public func removeListener(_ id: Int) {
        listeners.withLock { _ = $0.all.removeValue(forKey: id) }
    }

    private func tell(_ activity: Activity) {
        let all = listeners.withLock { Array($0.all.values) }
        for listener in all { listener(activity) }
    }

    /// The session's open conversations (all of them without a session filter is never given:
    /// `nil` is the conversations opened without a session), oldest first, those on `path` only
    /// when given (a path ending in `*` is a prefix).
    public func open(session: SessionID?, path: String? = nil) -> [Entry] {
        state.withLock { state in
            state.entries.values.filter { $0.session == session && Self.path($0.path, matches: path) }.sorted { $0.id < $1.id }
        }
    }

    /// Every open conversation, every session's (a live view of the whole server), oldest first.
    public var everyOpen: [Entry] {
        state.withLock { $0.entries.values.sorted { $0.id < $1.id } }
    }

    /// Sends `message` to the session's conversations (on `path`); how many. With `eachScope`,
    /// a text message goes once per open scope of each (`{{scope}}` in it replaced by the scope's
    /// name), and the count is of messages sent.
    public func send(_ message: WebSocketMessage, session: SessionID?, path: String?, eachScope: Bool = false) -> Int {
        let targets = open(session: session, path: path)
        if eachScope, case .text(let text) = message {
            return targets.reduce(0) { $0 + $1.conversation.pushEachScope(text) }
        }
        for entry in targets { entry.conversation.push(message) }
        return targets.count
    }

    /// Closes the session's conversations (on `path`) with `code`; how many.
    public func close(code: Int, reason: String, session: SessionID?, path: String?) -> Int {
        let targets = open(session: session, path: path)
        for entry in targets { entry.conversation.close(code: code, reason: reason) }
        return targets.count
    }

    /// Every conversation, when the server's state resets (a session's, or all).
    public func closeAll(session: SessionID?) {
        for entry in state.withLock({ Array($0.entries.values) }) where session == nil || entry.session == session {
            entry.conversation.close(code: 1001, reason: "stubd reset")
        }
    }

    private static func path(_ path: String, matches wanted: String?) -> Bool {
        guard let wanted else { return true }
        if wanted.hasSuffix("*") { return path.hasPrefix(String(wanted.dropLast())) }
        return path == wanted
    }
}

extension WebSocketRegistry: SessionState {
    /// A session reset closes its conversations.
    package func reset(session: SessionID?) { closeAll(session: session) }
}
