import AdminAPI
import Dispatch
import StubModel
import StubServer
import StubdEngine
import Synchronization
import StubdWebSockets
import AdminContract

/// `GET /__stubd/events`: the journal as Server-Sent Events, one `exchange` event per request
/// as it is journaled, its `id` the journal's sequence number — so a client that reconnects with
/// `Last-Event-ID` (browsers' `EventSource` does so by itself) first gets every entry after it
/// that the journal still holds, then the live ones, none twice and none missing.
///
/// With `?websockets=live`, open WebSocket conversations too, as they go (`websocket` events,
/// without an `id`, so resuming is untouched): `opened` (with the messages so far — every open
/// one is sent when the stream starts), `message`, `closed`; the journal's entry follows a close.
///
/// The serving loop only hands each entry to the stream's own serial queue (a closure and a
/// counter); redaction and JSON happen there, in journal order. Bounded twice: at most
/// `pendingLimit` entries wait for the queue, and the `ReplyStream` holds at most `bufferLimit`
/// bytes for the tab — past either the tab is disconnected (its `EventSource` reconnects and
/// catches up from the journal). A comment every `heartbeatSeconds` keeps idle connections (and
/// proxies between) from timing out.
final class JournalEventStream: Sendable {
    /// Bytes one tab may fall behind before it is dropped (a resume replays up to the whole
    /// journal: 1,000 entries of a few KiB each fit).
    static let bufferLimit = 8 << 20
    /// Entries that may wait for the stream's queue before the tab is dropped.
    static let pendingLimit = 10_000
    /// Seconds between keep-alive comments.
    static let heartbeatSeconds = 15.0

    private struct State {
        var sent = 0
        var pending = 0
        var listener: Int?
        var socketListener: Int?
        var heartbeat: Heartbeat?
    }

    /// The keep-alive timer; DispatchSource timers may be cancelled from any thread.
    private final class Heartbeat: @unchecked Sendable {
        let timer: any DispatchSourceTimer
        init(_ timer: any DispatchSourceTimer) { self.timer = timer }
    }

    private let journal: RequestJournal
    private let webSockets: WebSocketRegistry?
    private let session: SessionID?
    private let state = Mutex(State())
    private let work = DispatchQueue(label: "stubd.events")

    private init(journal: RequestJournal, webSockets: WebSocketRegistry?, session: SessionID?) {
        self.journal = journal
        self.webSockets = webSockets
        self.session = session
    }

    /// Opens a stream of `journal`'s entries (one session's with `session`), after `lastEventID`
    /// when reconnecting.
    static func open(journal: RequestJournal, webSockets: WebSocketRegistry? = nil, session: SessionID?, lastEventID: Int?) -> ReplyStream {
        let events = JournalEventStream(journal: journal, webSockets: webSockets, session: session)
        let stream = ReplyStream(status: 200, headers: [NameValue("Content-Type", "text/event-stream; charset=utf-8"),
                                                        NameValue("Cache-Control", "no-store"),
                                                        NameValue("X-Content-Type-Options", "nosniff")],
                                 bufferLimit: bufferLimit) { _ in events.close() }
        events.start(stream, after: lastEventID)
        return stream
    }

    private func start(_ stream: ReplyStream, after lastEventID: Int?) {
        stream.write(Array("retry: 1000\n\n".utf8))
        // The backlog is queued before the listener is added: an entry journaled meanwhile is
        // queued after it, and skipped there if the backlog already sent it.
        if let lastEventID {
            work.async { [self] in
                let backlog = journal.entries(matching: JournalQuery(session: session)).filter { $0.sequence > lastEventID }
                state.withLock { $0.sent = max($0.sent, lastEventID) }
                for entry in backlog { send(entry, to: stream) }
            }
        }
        let listener = journal.listeners.add { [self] entry in enqueue(entry, to: stream) }
        if let webSockets {
            // The listener first, then the open ones: a message in between may come twice (the
            // page keeps each once, by time), never be missed.
            let socketListener = webSockets.addListener { [self] activity in enqueue(activity, to: stream) }
            state.withLock { $0.socketListener = socketListener }
            for entry in webSockets.everyOpen { enqueue(.opened(entry), to: stream) }
        }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + Self.heartbeatSeconds, repeating: Self.heartbeatSeconds)
        timer.setEventHandler { stream.write(Array(": keep-alive\n\n".utf8)) }
        let heartbeat = Heartbeat(timer)
        state.withLock { state in
            state.listener = listener
            state.heartbeat = heartbeat
        }
        timer.resume()
    }

    /// On the serving loop: queue the entry, or drop a tab whose queue is full.
    private func enqueue(_ entry: JournalEntry, to stream: ReplyStream) {
        if let session, entry.session != session { return }
        queue(to: stream) { [self] in send(entry, to: stream) }
    }

    /// Runs `write` on the stream's queue, or drops a tab whose queue is full (`pendingLimit`).
    private func queue(to stream: ReplyStream, _ write: @escaping @Sendable () -> Void) {
        let admitted = state.withLock { state -> Bool in
            guard state.pending < Self.pendingLimit else { return false }
            state.pending += 1
            return true
        }
        guard admitted else {
            stream.drop()
            return
        }
        work.async { [self] in
            write()
            state.withLock { $0.pending -= 1 }
        }
    }

    /// From any thread: queue a conversation's activity (the same bound as entries).
    private func enqueue(_ activity: WebSocketRegistry.Activity, to stream: ReplyStream) {
        let data: JSONValue
        switch activity {
        case .opened(let entry):
            guard session == nil || entry.session == session else { return }
            var members: [(key: String, value: JSONValue)] = [("kind", .string("opened")), ("id", .number(Double(entry.id))),
                                                              ("route", .string(entry.route)), ("path", .string(entry.path)),
                                                              ("opened", .string(RequestsAdmin.timestamp(entry.opened)))]
            if let session = entry.session { members.append(("session", .string(session.rawValue))) }
            members.append(("messages", .array(entry.messages)))
            data = .object(members)
        case .message(let id, let session, let message):
            guard self.session == nil || session == self.session else { return }
            data = .object([("kind", .string("message")), ("id", .number(Double(id))), ("message", message)])
        case .closed(let id, let session):
            guard self.session == nil || session == self.session else { return }
            data = .object([("kind", .string("closed")), ("id", .number(Double(id)))])
        }
        queue(to: stream) {
            if stream.ending == nil {
                stream.write(Array("event: websocket\ndata: \(JSONWriter.write(data, pretty: false))\n\n".utf8))
            }
        }
    }

    /// On the stream's queue: one event, once, in sequence order.
    private func send(_ entry: JournalEntry, to stream: ReplyStream) {
        let fresh = state.withLock { state -> Bool in
            guard entry.sequence > state.sent else { return false }
            state.sent = entry.sequence
            return true
        }
        guard fresh, stream.ending == nil else { return }
        // Read through the journal's redactor as it is written out, here, off the serving loop.
        stream.write(event(entry))
    }

    private func close() {
        let (listener, socketListener, timer) = state.withLock { state in
            defer { state.listener = nil; state.socketListener = nil; state.heartbeat = nil }
            return (state.listener, state.socketListener, state.heartbeat)
        }
        if let listener { journal.listeners.remove(listener) }
        if let socketListener { webSockets?.removeListener(socketListener) }
        timer?.timer.cancel()
    }

    /// One event: `id`, `event: exchange`, and the entry as the admin API lists it, on one line.
    func event(_ entry: JournalEntry) -> [UInt8] {
        let json = RequestsAdmin.record(entry, bodyLimit: journal.bodyLimit).json
        return Array("id: \(entry.sequence)\nevent: exchange\ndata: \(JSONWriter.write(json, pretty: false))\n\n".utf8)
    }
}
