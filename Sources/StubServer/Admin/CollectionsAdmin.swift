import StubModel
import StubdEngine

/// `GET /__stubd/collections` (each collection the session sees and its item count), and
/// `GET`/`PUT /__stubd/collections/{name}` (its items, or replace them: a JSON array of objects).
struct CollectionsAdmin {
    let admin: StubAdmin

    private func specs(session: SessionID?) -> [CollectionSpec] {
        var seen: Set<String> = []
        return admin.routes(session: session).compactMap { $0.route.collection?.collection }.filter { seen.insert($0.name).inserted }
    }

    func list(session: SessionID?) -> PreparedReply {
        let entries = specs(session: session).map { spec -> JSONValue in
            .object([("name", .string(spec.name)), ("path", .string(spec.path)),
                     ("count", AdminReply.number(admin.collections.count(spec, session: session)))])
        }
        return AdminReply.json(.object([("collections", .array(entries))]))
    }

    func items(_ name: String, session: SessionID?) -> PreparedReply {
        guard let spec = spec(named: name, session: session) else { return unknown(name, session: session).reply }
        return AdminReply.json(.object([("name", .string(name)), ("items", .array(admin.collections.items(spec, session: session)))]))
    }

    func replace(_ name: String, _ body: CollectionItems, session: SessionID?) throws(AdminRefusal) -> CollectionCount {
        guard let spec = spec(named: name, session: session) else { throw unknown(name, session: session) }
        let items = body.items
        guard items.allSatisfy({ if case .object = $0 { $0[spec.idField].flatMap(CollectionSpec.idText) != nil } else { false } }) else {
            throw AdminRefusal("expected a JSON array of objects, each with a string or integer \"\(spec.idField)\"")
        }
        do {
            try admin.collections.replace(spec, items: items, session: session)
        } catch {
            throw AdminRefusal(error)
        }
        return CollectionCount(name: name, count: items.count)
    }

    private func spec(named name: String, session: SessionID?) -> CollectionSpec? {
        specs(session: session).first { $0.name == name }
    }

    private func unknown(_ name: String, session: SessionID?) -> AdminRefusal {
        let known = specs(session: session).map(\.name)
        return AdminRefusal("no collection named \"\(name)\"", status: 404,
                            problems: [known.isEmpty ? "no fixture declares a collection" : "collections: \(known.joined(separator: ", "))"])
    }
}
