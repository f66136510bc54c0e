import Foundation
import StubModel
import Synchronization
import StubdEngine

/// The items of every declared collection, per session: a session's items start as the
/// collection's seed on first use and are dropped by `reset(session:)`. Answers as a small real
/// API would — 200/201/204, 404 for a missing item, 409 for a duplicate id, 400 for a body that is
/// not a JSON object — and stays bounded: at most `itemLimit` items in one session's collection
/// (507 past it) and `sessionLimit` sessions with changed items (the oldest is dropped).
public final class CollectionStore: Sendable {
    private struct Key: Hashable {
        let session: SessionID?
        let name: String
    }

    private struct State {
        var items: [Key: [JSONValue]] = [:]
        var order: [Key] = []
    }

    /// Items one session's collection may hold.
    public static let itemLimit = 10_000
    /// Session collections kept with their own items.
    public static let sessionLimit = 1_000

    private let state = Mutex(State())

    /// An empty store: every session starts from its collections' seeds.
    public init() {}

    /// The items a session sees in a collection (its own, or the seed).
    public func items(_ spec: CollectionSpec, session: SessionID?) -> [JSONValue] {
        state.withLock { $0.items[Key(session: session, name: spec.name)] ?? spec.seed }
    }

    /// Replaces a session's items (admin API); nil when over the item limit.
    @discardableResult
    public func replace(_ spec: CollectionSpec, items: [JSONValue], session: SessionID?) -> Bool {
        guard items.count <= Self.itemLimit else { return false }
        state.withLock { Self.store(&$0, Key(session: session, name: spec.name), items) }
        return true
    }

    /// Forgets one session's items, or (nil) every session's.
    public func reset(session: SessionID?) {
        state.withLock { state in
            guard let session else {
                state = State()
                return
            }
            for key in state.items.keys where key.session == session { state.items[key] = nil }
            state.order.removeAll { $0.session == session }
        }
    }

    private static func store(_ state: inout State, _ key: Key, _ items: [JSONValue]) {
        if state.items[key] == nil {
            state.order.append(key)
            if state.order.count > sessionLimit { state.items[state.order.removeFirst()] = nil }
        }
        state.items[key] = items
    }

    /// The answer of one collection route for `request`.
    func perform(_ operation: CollectionOperation, request: IncomingRequest, route: Route, session: SessionID?) -> PreparedReply {
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
        return state.withLock { state -> PreparedReply in
            var items = state.items[key] ?? spec.seed
            let index = id.flatMap { id in items.firstIndex { $0[spec.idField].flatMap(CollectionSpec.idText) == id } }
            switch operation.action {
            case .list:
                return Self.json(200, .array(items))
            case .read:
                guard let index else { return Self.missing(spec, id) }
                return Self.json(200, items[index])
            case .create:
                guard items.count < Self.itemLimit else { return Self.error(507, "\(spec.name) holds \(Self.itemLimit) items in this session, its limit") }
                var item = body!
                if let given = item[spec.idField] {
                    guard let text = CollectionSpec.idText(given) else { return Self.error(400, "\(spec.idField) must be a string or an integer") }
                    if items.contains(where: { $0[spec.idField].flatMap(CollectionSpec.idText) == text }) {
                        return Self.error(409, "\(spec.name) already has an item with \(spec.idField) \(text)")
                    }
                } else {
                    item = Self.setting(item, spec.idField, Self.nextID(items, spec.idField))
                }
                items.append(item)
                Self.store(&state, key, items)
                let location = spec.path + "/" + (item[spec.idField].flatMap(CollectionSpec.idText) ?? "")
                return Self.json(201, item, extra: [NameValue("Location", location)])
            case .replace:
                guard let index else { return Self.missing(spec, id) }
                items[index] = Self.setting(body!, spec.idField, items[index][spec.idField] ?? .null)
                Self.store(&state, key, items)
                return Self.json(200, items[index])
            case .update:
                guard let index, case .object(var members) = items[index], case .object(let changes) = body! else { return Self.missing(spec, id) }
                for change in changes where change.key != spec.idField {
                    if let existing = members.firstIndex(where: { $0.key == change.key }) { members[existing].value = change.value } else { members.append(change) }
                }
                items[index] = .object(members)
                Self.store(&state, key, items)
                return Self.json(200, items[index])
            case .delete:
                guard let index else { return Self.missing(spec, id) }
                items.remove(at: index)
                Self.store(&state, key, items)
                return PreparedReply(status: 204, headers: [], body: [])
            }
        }
    }

    /// The next id: one more than the largest integer id, or a new UUID when ids are strings.
    private static func nextID(_ items: [JSONValue], _ field: String) -> JSONValue {
        let ids = items.compactMap { $0[field] }
        if ids.contains(where: { if case .string = $0 { true } else { false } }) { return .string(UUID().uuidString.lowercased()) }
        let largest = ids.compactMap { if case .number(let number) = $0 { number } else { nil } }.max() ?? 0
        return .number(largest + 1)
    }

    private static func setting(_ item: JSONValue, _ field: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = item else { return item }
        members.removeAll { $0.key == field }
        return .object([(field, value)] + members)
    }

    private static func json(_ status: Int, _ value: JSONValue, extra: [NameValue] = []) -> PreparedReply {
        PreparedReply(status: status, headers: [NameValue("Content-Type", "application/json")] + extra, body: Array(JSONWriter.write(value, pretty: false).utf8))
    }

    private static func error(_ status: Int, _ message: String) -> PreparedReply {
        json(status, .object([("error", .string(message))]))
    }

    private static func missing(_ spec: CollectionSpec, _ id: String?) -> PreparedReply {
        error(404, "\(spec.name) has no item with \(spec.idField) \(id ?? "")")
    }
}
