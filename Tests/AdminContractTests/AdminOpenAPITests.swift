import Testing
import StubModel
@testable import AdminContract
import StubdTestTags

/// The OpenAPI document `stubd admin-spec` writes, without a server: every declared endpoint is in
/// it once, operation ids are unique, and every `$ref` names a schema it holds
/// (Tests/admin/spec_test.py validates it and checks a running stubd's answers against it).
@Suite(.tags(.inMemory)) struct AdminOpenAPITests {
    let document = AdminOpenAPI.document(version: "1.2.3")

    func operations() -> [(path: String, method: String, operation: JSONValue)] {
        guard case .object(let paths)? = document["paths"] else { return [] }
        return paths.flatMap { path -> [(path: String, method: String, operation: JSONValue)] in
            guard case .object(let methods) = path.value else { return [] }
            return methods.map { (path.key, $0.key, $0.value) }
        }
    }

    @Test func everyEndpointIsThereOnceWithAUniqueOperationID() {
        let found = operations()
        #expect(found.count == AdminContract.all.count)
        for spec in AdminContract.all {
            #expect(found.contains { $0.path == "/__stubd/\(spec.path)" && $0.method == spec.method.lowercased() }, "\(spec)")
        }
        let ids = found.compactMap { entry -> String? in if case .string(let id)? = entry.operation["operationId"] { id } else { nil } }
        #expect(Set(ids).count == found.count, "\(ids)")
        #expect(ids.contains("postRoutesIdDisable") && ids.contains("getUiAppJs"))
        #expect(document["info"]?["version"] == .string("1.2.3"))
    }

    @Test func everyReferenceNamesASchemaTheDocumentHolds() {
        var references: Set<String> = []
        func collect(_ value: JSONValue) {
            switch value {
            case .object(let members):
                for member in members {
                    if member.key == "$ref", case .string(let target) = member.value { references.insert(target) }
                    collect(member.value)
                }
            case .array(let items): items.forEach(collect)
            default: break
            }
        }
        collect(document)
        #expect(references.contains("#/components/schemas/RequestRecord"))
        for reference in references {
            let parts = reference.dropFirst(2).split(separator: "/").map(String.init)
            var node: JSONValue? = document
            for part in parts { node = node?[part] }
            #expect(node != nil && node != .null, "\(reference) resolves to nothing")
        }
    }

    @Test func requestsTakeTheirFiltersAndCreatingCallsAnswer201() {
        let requests = operations().first { $0.path == "/__stubd/requests" && $0.method == "get" }?.operation
        guard case .array(let parameters)? = requests?["parameters"] else { Issue.record("no parameters"); return }
        #expect(parameters.compactMap { $0["name"] } == [.string("method"), .string("path"), .string("route"), .string("matched")])
        let add = operations().first { $0.path == "/__stubd/routes" && $0.method == "post" }?.operation
        #expect(add?["responses"]?["201"] != nil && add?["requestBody"] != nil)
    }
}
