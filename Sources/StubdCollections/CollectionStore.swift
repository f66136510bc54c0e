import Foundation
public import StubModel
public import StubdState
import Synchronization
package import StubdEngine

/// The items of every declared collection, per session: a session's items start as the
/// collection's seed on first use and are dropped by `reset(session:)`. Answers as a small real
/// API would — 200/201/204, 404 for a missing item, 409 for a duplicate id, 400 for a body that is
/// not a JSON object.
///
/// Items are kept as the JSON bytes they are answered with (and their id), so listing a
/// collection joins bytes instead of writing JSON, and every byte is charged to the
/// `StateBudget`: an item past the value bound, or a session or server past its bound, is a 507
/// naming the bound and its flag; nothing kept is dropped to make room. The lock is held only to
/// read or swap a session's item list, never while an answer is built.
public final class CollectionStore: Sendable {
    private struct Key: Hashable {
        let session: SessionID?
        let name: String
    }

    /// One item: its id as text and its JSON.
    package struct Item: Sendable {
        let id: String?
        /// The id is a JSON string (new ids are then UUIDs), not a number.
        let idIsString: Bool
        let json: [UInt8]

        init(_ value: JSONValue, idField: String) {
            let given = value[idField]
            id = given.flatMap(CollectionSpec.idText)
            if case .string? = given { idIsString = true } else { idIsString = false }
            json = Array(JSONWriter.write(value, pretty: false).utf8)
        }

        var value: JSONValue { (try? JSONParser.parse(json)) ?? .null }

        /// What it is charged: its JSON, its id, and the entry.
        var cost: Int {
            json.count + (id?.utf8.count ?? 0) + StateBudget.entryOverhead
        }
    }

    private struct State {
        var items: [Key: [Item]] = [:]
        /// Bytes charged per key (the sum of its items' costs plus the key's own).
        var bytes: [Key: Int] = [:]
        /// Changes made per key, so a change made outside the lock is swapped in only over the
        /// list it was made from.
        var versions: [Key: Int] = [:]
    }

    private let state = Mutex(State())
    /// Where every item is charged.
    package let budget: StateBudget

    /// An empty store charged to `budget`: every session starts from its collections' seeds.
    public init(budget: StateBudget = StateBudget()) {
        self.budget = budget
    }

    /// The items a session sees in a collection (its own, or the seed).
    public func items(_ spec: CollectionSpec, session: SessionID?) -> [JSONValue] {
        guard let own = state.withLock({ $0.items[Key(session: session, name: spec.name)] }) else { return spec.seed }
        return own.map(\.value)
    }

    /// How many items a session sees in a collection.
    public func count(_ spec: CollectionSpec, session: SessionID?) -> Int {
        state.withLock { $0.items[Key(session: session, name: spec.name)]?.count } ?? spec.seed.count
    }

    /// Replaces a session's items (admin API), all or none.
    public func replace(_ spec: CollectionSpec, items: [JSONValue], session: SessionID?) throws(StateBudget.Refusal) {
        let made = items.map { Item($0, idField: spec.idField) }
        for item in made { try budget.checkValue(item.json.count, "an item of \(spec.name)") }
        try store(Key(session: session, name: spec.name), made)
    }

    /// Forgets one session's items, or (nil) every session's, and gives their bytes back.
    public func reset(session: SessionID?) {
        state.withLock { state in
            for (key, bytes) in state.bytes where session == nil || key.session == session {
                budget.release(bytes, session: key.session)
                state.bytes[key] = nil
                state.items[key] = nil
                state.versions[key, default: 0] += 1
            }
        }
    }

    /// Swaps in `items` for `key` if the budget takes the difference.
    private func store(_ key: Key, _ items: [Item]) throws(StateBudget.Refusal) {
        _ = try swap(key, from: nil, to: items)
    }

    /// A session's items, or the seed's (made once per call; seeds are fixture-sized).
    private func current(_ key: Key, _ spec: CollectionSpec) -> [Item] {
        state.withLock { $0.items[key] } ?? spec.seed.map { Item($0, idField: spec.idField) }
    }

    /// The answer of one collection route for `request`. A change reads the session's list,
    /// makes the new one outside the lock and swaps it in only if no other request changed the
    /// list meanwhile (else it starts again), so requests of one session stay in order.
    package func perform(_ operation: CollectionOperation, request: IncomingRequest, session: SessionID?) -> PreparedReply {
        let spec = operation.collection
        let key = Key(session: session, name: spec.name)
        let id = operation.action.route.item ? PathSegments(raw: request.rawPath).segments.last : nil
        var body: JSONValue?
        if [.create, .replace, .update].contains(operation.action) {
            guard let parsed = try? JSONParser.parse(request.body), case .object = parsed else {
                return Self.error(400, "\(request.method) \(spec.path): the body must be a JSON object")
            }
            body = parsed
        }
        switch operation.action {
        case .list:
            return Self.list(current(key, spec))
        case .read:
            guard let item = current(key, spec).first(where: { $0.id == id }) else { return Self.missing(spec, id) }
            return Self.json(200, item.json)
        default:
            break
        }
        for _ in 0..<16 {
            let (before, version) = state.withLock { ($0.items[key], $0.versions[key] ?? 0) }
            var items = before ?? spec.seed.map { Item($0, idField: spec.idField) }
            let reply: PreparedReply
            switch change(operation.action, spec: spec, id: id, body: body, items: &items) {
            case .failure(let refusal): return refusal.reply
            case .success(let answer): reply = answer
            }
            do {
                for item in items where item.json.count > budget.limits.valueBytes { try budget.checkValue(item.json.count, "an item of \(spec.name)") }
                if try swap(key, from: version, to: items) { return reply }
            } catch {
                return Self.error(507, "\(spec.name): \(error.description)")
            }
        }
        return Self.error(503, "\(spec.name) kept changing while this request was applied; send it again")
    }

    /// Swaps `items` in for `key` if its list is still the one of `version` (nil: whatever it
    /// is), charging the difference.
    private func swap(_ key: Key, from version: Int?, to items: [Item]) throws(StateBudget.Refusal) -> Bool {
        let cost = items.reduce(StateBudget.entryOverhead + key.name.utf8.count + (key.session?.rawValue.utf8.count ?? 0)) { $0 + $1.cost }
        return try state.withLock { (state: inout State) throws(StateBudget.Refusal) -> Bool in
            if let version, version != state.versions[key] ?? 0 { return false }
            try budget.charge(cost - (state.bytes[key] ?? 0), session: key.session)
            state.bytes[key] = cost
            state.items[key] = items
            state.versions[key, default: 0] += 1
            return true
        }
    }

    /// Applies a create, replace, update or delete to `items`; the answer, or a refusal to send.
    private func change(_ action: CollectionSpec.Action, spec: CollectionSpec, id: String?, body: JSONValue?,
                        items: inout [Item]) -> Result<PreparedReply, PreparedReplyRefusal> {
        let index = id.flatMap { id in items.firstIndex { $0.id == id } }
        switch action {
        case .create:
            var item = body!
            if let given = item[spec.idField] {
                guard let text = CollectionSpec.idText(given) else { return .failure(.init(Self.error(400, "\(spec.idField) must be a string or an integer"))) }
                if items.contains(where: { $0.id == text }) {
                    return .failure(.init(Self.error(409, "\(spec.name) already has an item with \(spec.idField) \(text)")))
                }
            } else {
                item = Self.setting(item, spec.idField, Self.nextID(items, spec.idField))
            }
            let made = Item(item, idField: spec.idField)
            items.append(made)
            let location = spec.path + "/" + (made.id ?? "")
            return .success(Self.json(201, made.json, extra: [NameValue("Location", location)]))
        case .replace:
            guard let index else { return .failure(.init(Self.missing(spec, id))) }
            items[index] = Item(Self.setting(body!, spec.idField, items[index].value[spec.idField] ?? .null), idField: spec.idField)
            return .success(Self.json(200, items[index].json))
        case .update:
            guard let index, case .object(var members) = items[index].value, case .object(let changes) = body! else {
                return .failure(.init(Self.missing(spec, id)))
            }
            for change in changes where change.key != spec.idField {
                if let existing = members.firstIndex(where: { $0.key == change.key }) { members[existing].value = change.value } else { members.append(change) }
            }
            items[index] = Item(.object(members), idField: spec.idField)
            return .success(Self.json(200, items[index].json))
        case .delete:
            guard let index else { return .failure(.init(Self.missing(spec, id))) }
            items.remove(at: index)
            return .success(PreparedReply(status: 204, headers: [], body: []))
        case .list, .read:
            return .failure(.init(Self.error(500, "not a change")))
        }
    }

    /// A reply sent instead of a change.
    private struct PreparedReplyRefusal: Error {
        let reply: PreparedReply
        init(_ reply: PreparedReply) { self.reply = reply }
    }

    /// `[item,item,…]` from the items' kept bytes.
    private static func list(_ items: [Item]) -> PreparedReply {
        var body: [UInt8] = []
        body.reserveCapacity(items.reduce(2) { $0 + $1.json.count + 1 })
        body.append(UInt8(ascii: "["))
        for (index, item) in items.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += item.json
        }
        body.append(UInt8(ascii: "]"))
        return json(200, body)
    }

    /// The next id: one more than the largest integer id, or a new UUID when ids are strings.
    private static func nextID(_ items: [Item], _ field: String) -> JSONValue {
        let ids = items.compactMap(\.id)
        if items.contains(where: \.idIsString) { return .string(UUID().uuidString.lowercased()) }
        let largest = ids.compactMap { Int64($0) }.max() ?? 0
        return .number(Double(largest + 1))
    }

    private static func setting(_ item: JSONValue, _ field: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = item else { return item }
        members.removeAll { $0.key == field }
        return .object([(field, value)] + members)
    }

    private static func json(_ status: Int, _ body: [UInt8], extra: [NameValue] = []) -> PreparedReply {
        PreparedReply(status: status, headers: [NameValue("Content-Type", "application/json")] + extra, body: body)
    }

    private static func error(_ status: Int, _ message: String) -> PreparedReply {
        json(status, Array(JSONWriter.write(.object([("error", .string(message))]), pretty: false).utf8))
    }

    private static func missing(_ spec: CollectionSpec, _ id: String?) -> PreparedReply {
        error(404, "\(spec.name) has no item with \(spec.idField) \(id ?? "")")
    }
}

extension CollectionStore: SessionState {}
