import Dispatch
import StubModel
import StubdEngine
import Synchronization

/// `GET /__stubd/events`: the journal as Server-Sent Events, one `exchange` event per request
/// as it is journaled, its `id` the journal's sequence number — so a client that reconnects with
/// `Last-Event-ID` (browsers' `EventSource` does so by itself) first gets every entry after it
/// that the journal still holds, then the live ones, none twice and none missing.
///
/// Written through a `ReplyStream`: a tab that stops reading is dropped once `bufferLimit` bytes
/// wait (its `EventSource` reconnects and catches up from the journal), and the serving loops
/// only append to a queue. A comment line every `heartbeatSeconds` keeps idle connections (and
/// proxies between) from timing out.
final class JournalEventStream: Sendable {
    /// Bytes one tab may fall behind before it is dropped (a resume replays up to the whole
    /// journal: 1,000 entries of a few KiB each fit).
    static let bufferLimit = 8 << 20
    /// Seconds between keep-alive comments.
    static let heartbeatSeconds = 15.0

    private struct State {
        var sent = 0
        var listener: Int?
        var heartbeat: Heartbeat?
    }

    /// The keep-alive timer; DispatchSource timers may be cancelled from any thread.
    private final class Heartbeat: @unchecked Sendable {
        let timer: any DispatchSourceTimer
        init(_ timer: any DispatchSourceTimer) { self.timer = timer }
    }

    private let journal: RequestJournal
    private let session: SessionID?
    private let state = Mutex(State())

    private init(journal: RequestJournal, session: SessionID?) {
        self.journal = journal
        self.session = session
    }

    /// Opens a stream of `journal`'s entries (one session's with `session`), after `lastEventID`
    /// when reconnecting.
    static func open(journal: RequestJournal, session: SessionID?, lastEventID: Int?) -> ReplyStream {
        let events = JournalEventStream(journal: journal, session: session)
        let stream = ReplyStream(status: 200, headers: [NameValue("Content-Type", "text/event-stream; charset=utf-8"),
                                                        NameValue("Cache-Control", "no-store"),
                                                        NameValue("X-Content-Type-Options", "nosniff")],
                                 bufferLimit: bufferLimit) { _ in events.close() }
        events.start(stream, after: lastEventID)
        return stream
    }

    private func start(_ stream: ReplyStream, after lastEventID: Int?) {
        // Listen first, then send what the journal holds under the same lock the listener takes:
        // an entry journaled meanwhile waits for the lock and is then skipped if already sent.
        let listener = journal.listeners.add { [self] entry in send(entry, to: stream) }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + Self.heartbeatSeconds, repeating: Self.heartbeatSeconds)
        timer.setEventHandler { stream.write(Array(": keep-alive\n\n".utf8)) }
        let heartbeat = Heartbeat(timer)
        state.withLock { state in
            state.listener = listener
            state.heartbeat = heartbeat
            stream.write(Array("retry: 1000\n\n".utf8))
            if let lastEventID {
                state.sent = lastEventID
                for entry in journal.entries(matching: JournalQuery(session: session)) where entry.sequence > state.sent {
                    stream.write(event(entry))
                    state.sent = entry.sequence
                }
            }
        }
        timer.resume()
    }

    private func send(_ entry: JournalEntry, to stream: ReplyStream) {
        if let session, entry.session != session { return }
        state.withLock { state in
            guard entry.sequence > state.sent else { return }
            state.sent = entry.sequence
            stream.write(event(entry))
        }
    }

    private func close() {
        let (listener, timer) = state.withLock { state in
            defer { state.listener = nil; state.heartbeat = nil }
            return (state.listener, state.heartbeat)
        }
        if let listener { journal.listeners.remove(listener) }
        timer?.timer.cancel()
    }

    /// One event: `id`, `event: exchange`, and the entry as the admin API lists it, on one line.
    func event(_ entry: JournalEntry) -> [UInt8] {
        let json = RequestsAdmin.json(entry, redactor: journal.redactor, bodyLimit: journal.bodyLimit)
        return Array("id: \(entry.sequence)\nevent: exchange\ndata: \(JSONWriter.write(json, pretty: false))\n\n".utf8)
    }
}
