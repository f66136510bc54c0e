public import StubModel

/// One collection the session sees.
public struct CollectionSummary: AdminBody {
    /// Its name, as templates and the admin API name it.
    public let name: String
    /// The path its routes serve.
    public let path: String
    /// How many items the session sees.
    public let count: Int

    /// A summary.
    public init(name: String, path: String, count: Int) {
        (self.name, self.path, self.count) = (name, path, count)
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected a collection")
        name = try fields.string("name")
        path = try fields.string("path")
        count = try fields.int("count")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("name", .string(name)), ("path", .string(path)), ("count", .int(count))]) }
}

/// `GET /__stubd/collections`.
public struct CollectionList: AdminBody {
    /// Every collection the session sees.
    public let collections: [CollectionSummary]

    /// These collections.
    public init(_ collections: [CollectionSummary]) {
        self.collections = collections
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        collections = try JSONFields(json, usage: "expected the collections object").array("collections")
            .map { item throws(AdminBodyProblem) in try CollectionSummary(json: item) }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("collections", .array(collections.map(\.json)))]) }
}

/// `GET /__stubd/collections/{name}`.
public struct CollectionContents: AdminBody {
    /// The collection's name.
    public let name: String
    /// The session's items, in order.
    public let items: [JSONValue]

    /// `name`'s items.
    public init(name: String, items: [JSONValue]) {
        self.name = name
        self.items = items
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected the collection object")
        name = try fields.string("name")
        items = try fields.array("items")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("name", .string(name)), ("items", .array(items))]) }
}

/// A collection's items replaced: `{"name": "users", "count": 3}`.
public struct CollectionCount: AdminBody {
    /// The collection's name.
    public let name: String
    /// How many items it holds now.
    public let count: Int

    /// `name` holds `count` items.
    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected the collection count")
        name = try fields.string("name")
        count = try fields.int("count")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("name", .string(name)), ("count", .int(count))]) }
}
