import Foundation
import Synchronization
public import StubModel
import StubdState

/// The last `capacity` served requests, in a ring: memory stays bounded under any load (each
/// entry keeps at most `bodyLimit` body bytes and `headerLimit` header bytes).
///
/// A write is a short critical section (an array slot assignment); queries copy out under the
/// same lock.
public final class RequestJournal: ExchangeObserver {
    /// Header bytes kept per entry.
    public static let headerLimit = 8 * 1024

    private struct Ring {
        var slots: [(sequence: Int, exchange: Exchange)?]
        var next = 0
        var sequence = 0
    }

    /// How many entries are kept; 0 keeps none.
    public let capacity: Int
    /// Body bytes kept per entry.
    public let bodyLimit: Int
    /// What the journal hides: secret headers, query, form and JSON fields (all kept with `.off`).
    public let redactor: Redactor
    private let ring: Mutex<Ring>

    /// A journal keeping `capacity` entries of up to `bodyLimit` body bytes, secrets hidden by
    /// `redactor`.
    public init(capacity: Int = 1000, bodyLimit: Int = 4096, redactor: Redactor = Redactor()) {
        self.capacity = max(0, capacity)
        self.bodyLimit = max(0, bodyLimit)
        self.redactor = redactor
        ring = Mutex(Ring(slots: Array(repeating: nil, count: max(0, capacity))))
    }

    /// Keeps one exchange with the stubs (admin calls and preflights are not kept): the exchange
    /// itself, unless its request is over the bounds (then a copy cut to them).
    public func exchangeEnded(_ exchange: Exchange) {
        guard capacity > 0, exchange.isStubTraffic else { return }
        let kept = exchange.bounded(headerLimit: Self.headerLimit, bodyLimit: bodyLimit, redactor: redactor)
        let listening = !listeners.isEmpty
        let sequence = ring.withLock { ring -> Int in
            ring.sequence += 1
            ring.slots[ring.next] = (ring.sequence, kept)
            ring.next = (ring.next + 1) % capacity
            return ring.sequence
        }
        if listening { listeners.tell(JournalEntry(sequence: sequence, exchange: kept, redactor: redactor)) }
    }

    /// Who hears of each entry as it is added (a dashboard's event stream), outside the
    /// journal's lock, on the loop that served the request. Entries come as kept, not yet
    /// redacted: a listener shows them through `redacted(by: redactor)`, off the loop.
    public let listeners = JournalListeners()

    /// Entries added so far, including those the ring has let go (for the metrics).
    public var added: Int { ring.withLock { $0.sequence } }

    /// Bodies past this size that may name secrets (JSON, forms, multipart) are not kept: they
    /// would have to be parsed whole, on the serving loop, to be redacted before being cut.
    public static let redactParseLimit = 256 * 1024

    /// The body bytes an entry keeps. A body cut to the limit could no longer be parsed to find
    /// its secret fields, so one that is cut is redacted first — up to `redactParseLimit`; past
    /// it, one that may name secrets is not kept at all (the admin API says so). The rest are
    /// redacted on the way out (`entries`).
    static func kept(_ body: [UInt8], contentType: String?, limit: Int, redactor: Redactor) -> [UInt8] {
        guard body.count > limit else { return body }
        guard redactor.enabled, Redactor.mayNameSecrets(body, contentType: contentType) else { return Array(body.prefix(limit)) }
        guard body.count <= redactParseLimit else { return [] }
        return Array(redactor.body(body, contentType: contentType).prefix(limit))
    }

    /// Entries matching `query`, oldest first, with secrets replaced by the redactor's
    /// placeholder. Redacting here, when entries leave the journal, keeps the serving path free
    /// of it: every way out (admin API, embedding API) goes through this method.
    public func entries(matching query: JournalQuery = JournalQuery()) -> [JournalEntry] {
        let all = ring.withLock { ring in
            Array(ring.slots[ring.next...] + ring.slots[..<ring.next]).compactMap { $0 }
        }
        return all.map { JournalEntry(sequence: $0.sequence, exchange: $0.exchange, redactor: redactor) }.filter(query.accepts)
    }

    /// How many entries match `query` (the verification count).
    public func count(matching query: JournalQuery = JournalQuery()) -> Int {
        ring.withLock { ring in
            ring.slots.reduce(0) { count, slot in
                guard let slot else { return count }
                return count + (query.accepts(JournalEntry(sequence: slot.sequence, exchange: slot.exchange, redactor: .off)) ? 1 : 0)
            }
        }
    }

    /// Forgets one session's entries, or (nil) all.
    public func clear(session: SessionID? = nil) {
        ring.withLock { ring in
            for index in ring.slots.indices where session == nil || ring.slots[index]?.exchange.session == session {
                ring.slots[index] = nil
            }
        }
    }

    /// How many entries are held now.
    public var size: Int { ring.withLock { $0.slots.reduce(0) { $0 + ($1 == nil ? 0 : 1) } } }
}

extension RequestJournal: SessionState {
    /// A session reset forgets its entries.
    package func reset(session: SessionID?) { clear(session: session) }
}
