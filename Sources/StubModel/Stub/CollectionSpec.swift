/// A named collection of JSON objects a fixture file declares (`"collections"`), served as a
/// small REST resource — list, read, create, replace, update, delete — whose items live per
/// session, start from `seed`, and are reset with the session: state a test can build up through
/// the app and check afterwards, without writing a scenario per step.
public struct CollectionSpec: Sendable, Hashable {
    /// The name (admin API, logs).
    public var name: String
    /// The base path, `/todos`; items are at `/todos/{id}`.
    public var path: String
    /// The member holding an item's id (default `id`).
    public var idField: String
    /// The items every session starts with.
    public var seed: [JSONValue]

    /// A collection.
    public init(name: String, path: String, idField: String = "id", seed: [JSONValue] = []) {
        self.name = name
        self.path = path
        self.idField = idField
        self.seed = seed
    }

    /// An id as text: a string as itself, an integer as its digits; nil for anything else.
    public static func idText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .number(let number) where number == number.rounded() && abs(number) < 1e15: return String(Int64(number))
        default: return nil
        }
    }

    /// What one generated route does.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        case list, read, create, replace, update, delete

        /// The method and whether the route is the item path (`/todos/{id}`).
        public var route: (method: String, item: Bool) {
            switch self {
            case .list: return ("GET", false)
            case .create: return ("POST", false)
            case .read: return ("GET", true)
            case .replace: return ("PUT", true)
            case .update: return ("PATCH", true)
            case .delete: return ("DELETE", true)
            }
        }
    }

    /// The six routes a collection is served by, as fixtures (so they are matched, listed,
    /// journaled and overridden like any route: a hand-written stub for `GET /todos/1` wins).
    public func fixtures(source: String) -> [Fixture] {
        Action.allCases.map { action in
            let (method, item) = action.route
            var request: RequestPattern
            if item, case .success(let template) = PathTemplate.parse(path + "/{" + idField + "}") {
                request = RequestPattern(method: method, path: .template(template))
            } else {
                request = RequestPattern(method: method, path: path)
            }
            request.query.othersAllowed = true
            return Fixture(name: "\(name): \(action.rawValue)", source: source, request: request,
                           outcome: .collection(CollectionOperation(collection: self, action: action)))
        }
    }
}

/// One collection route's job: the collection and the action.
public struct CollectionOperation: Sendable, Hashable {
    /// The collection.
    public var collection: CollectionSpec
    /// What the route does.
    public var action: CollectionSpec.Action

    /// An operation.
    public init(collection: CollectionSpec, action: CollectionSpec.Action) {
        self.collection = collection
        self.action = action
    }
}
