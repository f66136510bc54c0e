import AdminContract
import StubModel
import StubServer
import StubdCollections

/// `GET /__stubd/collections` (each collection the session sees and its item count), and
/// `GET`/`PUT /__stubd/collections/{name}` (its items, or replace them: a JSON array of objects).
struct CollectionsAdmin {
    let state: SessionStore

    private func specs(session: SessionID?) -> [CollectionSpec] {
        var seen: Set<String> = []
        return state.routes(session: session).compactMap { $0.route.collection?.collection }.filter { seen.insert($0.name).inserted }
    }

    func list(session: SessionID?) -> CollectionList {
        CollectionList(specs(session: session).map { spec in
            CollectionSummary(name: spec.name, path: spec.path, count: state.collections.count(spec, session: session))
        })
    }

    func items(_ name: String, session: SessionID?) throws(AdminRefusal) -> CollectionContents {
        guard let spec = spec(named: name, session: session) else { throw unknown(name, session: session) }
        return CollectionContents(name: name, items: state.collections.items(spec, session: session))
    }

    func replace(_ name: String, _ body: CollectionItems, session: SessionID?) throws(AdminRefusal) -> CollectionCount {
        guard let spec = spec(named: name, session: session) else { throw unknown(name, session: session) }
        let items = body.items
        guard items.allSatisfy({ if case .object = $0 { $0[spec.idField].flatMap(CollectionSpec.idText) != nil } else { false } }) else {
            throw AdminRefusal("expected a JSON array of objects, each with a string or integer \"\(spec.idField)\"")
        }
        do {
            try state.collections.replace(spec, items: items, session: session)
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
