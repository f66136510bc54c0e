import Foundation
import Synchronization
import TargetModel

/// The last `capacity` served requests, in a ring: memory stays bounded under any load (each
/// entry keeps at most `bodyLimit` body bytes and `headerLimit` header bytes).
///
/// A write is a short critical section (an array slot assignment); queries copy out under the
/// same lock.
public final class RequestJournal: Sendable {
    /// Header bytes kept per entry.
    public static let headerLimit = 8 * 1024

    private struct Ring {
        var slots: [JournalEntry?]
        var next = 0
        var sequence = 0
    }

    /// How many entries are kept; 0 keeps none.
    public let capacity: Int
    /// Body bytes kept per entry.
    public let bodyLimit: Int
    private let ring: Mutex<Ring>

    /// A journal keeping `capacity` entries of up to `bodyLimit` body bytes.
    public init(capacity: Int = 1000, bodyLimit: Int = 4096) {
        self.capacity = max(0, capacity)
        self.bodyLimit = max(0, bodyLimit)
        ring = Mutex(Ring(slots: Array(repeating: nil, count: max(0, capacity))))
    }

    /// Records one exchange.
    func record(_ request: IncomingRequest, session: String?, plan: ResponsePlan, latency: Double) {
        guard capacity > 0 else { return }
        var headerBytes = 0
        let headers = request.headers.prefix { header in
            headerBytes += header.name.utf8.count + header.value.utf8.count
            return headerBytes <= Self.headerLimit
        }
        var status: Int?
        var fault: Fault?
        switch plan.action {
        case .reply(let reply): status = reply.status
        case .fault(let value): fault = value
        }
        let time = Date()
        ring.withLock { ring in
            ring.sequence += 1
            ring.slots[ring.next] = JournalEntry(
                sequence: ring.sequence, time: time, session: session, method: request.method,
                rawPath: request.rawPath, rawQuery: request.rawQuery, headers: Array(headers),
                body: Array(request.body.prefix(bodyLimit)), bodySize: request.body.count,
                routeID: plan.routeID, routeName: plan.routeID == nil ? nil : plan.routeLabel,
                nearMiss: plan.nearMiss, status: status, fault: fault, latency: latency)
            ring.next = (ring.next + 1) % capacity
        }
    }

    /// Entries matching `query`, oldest first.
    public func entries(matching query: JournalQuery = JournalQuery()) -> [JournalEntry] {
        let all = ring.withLock { ring in
            Array(ring.slots[ring.next...] + ring.slots[..<ring.next]).compactMap { $0 }
        }
        return all.filter(query.accepts)
    }

    /// How many entries match `query` (the verification count).
    public func count(matching query: JournalQuery = JournalQuery()) -> Int {
        ring.withLock { ring in ring.slots.reduce(0) { $0 + (($1.map(query.accepts)) == true ? 1 : 0) } }
    }

    /// Forgets one session's entries, or (nil) all.
    public func clear(session: String? = nil) {
        ring.withLock { ring in
            for index in ring.slots.indices where session == nil || ring.slots[index]?.session == session {
                ring.slots[index] = nil
            }
        }
    }

    /// How many entries are held now.
    public var size: Int { ring.withLock { $0.slots.reduce(0) { $0 + ($1 == nil ? 0 : 1) } } }
}
