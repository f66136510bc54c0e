import Foundation
import Testing
import StubModel
@testable import OpenAPIImport

/// Socket-free: which routes a spec becomes and how each is selected.
@Suite struct OpenAPIImporterTests {
    @Test func theFirstSuccessAnswersPlainlyAndTheRestBySelector() throws {
        let spec = #"""
        {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "servers": [{"url": "https://h.example/api/"}],
         "paths": {"/items/{id}": {"delete": {"responses": {
            "404": {"description": "no", "content": {"application/json": {"example": {"e": 1}}}},
            "204": {"description": "gone"}}}}}}
        """#
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spec-\(UUID().uuidString).json").path
        try Data(spec.utf8).write(to: URL(fileURLWithPath: file))
        let imported = OpenAPIImporter.importSpec(file)
        #expect(imported.errors.isEmpty)
        let routes = imported.fixtures.map { ($0.request.method, $0.request.path.description, $0.request.headerMatches.map(\.match)) }
        #expect(routes.count == 2)
        #expect(routes[0].0 == "DELETE" && routes[0].1 == "/api/items/{id}")
        #expect(routes[0].2 == [.equalTo("404", caseInsensitive: true)], "404 comes first in the spec but is not the success")
        #expect(routes[1].2.isEmpty, "204 answers a plain request")
        #expect(imported.unsupported.count == 1 && imported.unsupported[0].contains("responses.204: no example; answered with status 204"))
    }

    /// Real specs: a server URL with variables keeps its base path, and a bound past 64-bit
    /// integers (OpenAI's `maximum: 9223372036854776000`) does not refuse the whole spec.
    @Test func serverVariablesAndHugeBoundsAreRead() throws {
        let spec = #"""
        {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
         "servers": [{"url": "{scheme}://api.example.com/{version}", "variables": {"scheme": {"default": "https"}, "version": {"default": "v2"}}}],
         "paths": {"/items": {"get": {"parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 9223372036854776000, "minimum": -9223372036854776000}}],
            "responses": {"200": {"description": "ok", "content": {"application/json": {"example": {"items": []}}}}}}}}}
        """#
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spec-\(UUID().uuidString).json").path
        try Data(spec.utf8).write(to: URL(fileURLWithPath: file))
        let imported = OpenAPIImporter.importSpec(file)
        #expect(imported.errors.isEmpty, "\(imported.errors)")
        #expect(imported.fixtures.map { $0.request.path.description } == ["/v2/items"])
        #expect(OpenAPIVersions.clampingHugeBounds(#"maximum: 9223372036854776000, "minimum": -99999999999999999999, maximum: 100"#)
                == #"maximum: 9223372036854775807, "minimum": -9223372036854775808, maximum: 100"#)
    }

    /// Issue 49: OpenAI's spec has `/responses` and `/responses?beta=true` — stripping the query left
    /// two equal keys and the YAML reader refused the whole file. The variant now keeps its query as
    /// a matcher (said in a warning); a query key alone is still served on its path.
    @Test func aQueryVariantBesideItsPathImportsWithItsQueryAsAMatcher() throws {
        let spec = """
        openapi: 3.1.0
        info: {title: openai-shaped, version: "1"}
        paths:
          /responses:
            post:
              operationId: createResponse
              responses:
                "200": {description: ok, content: {application/json: {example: {object: response}}}}
          /responses?beta=true:
            post:
              operationId: createBetaResponse
              responses:
                "200": {description: ok, content: {application/json: {example: {object: beta}}}}
          /threads?beta=true:
            get:
              responses:
                "200": {description: ok, content: {application/json: {example: {data: []}}}}
        """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spec-\(UUID().uuidString).yaml").path
        try Data(spec.utf8).write(to: URL(fileURLWithPath: file))
        let imported = OpenAPIImporter.importSpec(file)
        #expect(imported.errors.isEmpty, "\(imported.errors)")
        let routes = imported.fixtures.map { "\($0.request.method) \($0.request.path.description) \($0.request.query.pairs.map { "\($0.name)=\($0.value)" })" }.sorted()
        #expect(routes == ["GET /threads []", "POST /responses [\"beta=true\"]", "POST /responses []"], "\(routes)")
        #expect(imported.unsupported.contains { $0.contains("1 path key(s) with a query beside the same path without one") && $0.contains("/responses?beta=true") })
        #expect(imported.unsupported.contains { $0.contains("served on the path alone: /threads") })
    }

    /// A recursive schema (Stripe's spec is full of them) does not refuse the spec: references are
    /// followed only where an example needs them.
    @Test func aRecursiveSchemaIsImported() throws {
        let spec = """
        openapi: 3.0.3
        info: {title: rec, version: "1"}
        paths:
          /nodes/{id}:
            get:
              responses:
                "200":
                  description: a node
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Node'}
          /roots:
            get:
              responses:
                "200": {$ref: '#/components/responses/Roots'}
        components:
          responses:
            Roots:
              description: roots
              content:
                application/json:
                  example: [{id: r1, children: []}]
          schemas:
            Node:
              type: object
              example: {id: n1, children: [{id: n2, children: []}]}
              properties:
                id: {type: string}
                children: {type: array, items: {$ref: '#/components/schemas/Node'}}
        """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spec-\(UUID().uuidString).yaml").path
        try Data(spec.utf8).write(to: URL(fileURLWithPath: file))
        let imported = OpenAPIImporter.importSpec(file)
        #expect(imported.errors.isEmpty, "\(imported.errors)")
        let bodies = imported.fixtures.map { fixture -> String in
            guard case .response(let response) = fixture.outcome else { return "" }
            return String(decoding: response.body, as: UTF8.self)
        }
        #expect(bodies == [#"{"children":[{"children":[],"id":"n2"}],"id":"n1"}"#, #"[{"children":[],"id":"r1"}]"#], "\(bodies)")
    }
}
