import StubModel

/// Any bytes as a GraphQL document and as a request carrying one: reading stops at its bounds
/// (depth 128, 10,000 fields after fragments) instead of recursing or expanding without end, and
/// what it reads stays inside them.
func fuzzGraphQL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if case .success(let document) = GraphQLDocument.parse(text) {
        var fields = 0
        func walk(_ selections: [GraphQLDocument.Field], depth: Int) {
            if depth > GraphQLDocument.maxDepth + 1 { fatalError("a document read deeper than its bound") }
            for field in selections {
                fields += 1
                walk(field.selections, depth: depth + 1)
            }
        }
        for operation in document.operations { walk(operation.selections, depth: 0) }
        if fields > GraphQLDocument.maxFields * max(1, document.operations.count) { fatalError("\(fields) fields read") }
    }
    _ = GraphQLRequest.read(method: "GET", query: FormCoding.decodePairs(text), body: nil)
    _ = GraphQLRequest.read(method: "POST", query: [], body: .object([("query", .string(text)), ("operationName", .string("Q"))]))
    // An `application/graphql` body (the document itself), and the same bytes read as another file
    // of an import whose fragments the document may spread (`stubd import graphql` of a folder).
    _ = GraphQLRequest.read(method: "POST", query: FormCoding.decodePairs("operationName=Q"), contentType: "application/graphql",
                            body: Array(text.utf8), json: nil)
    var library = GraphQLFragments()
    library.add(text, source: "fuzz")
    if case .success(let document) = GraphQLDocument.parse(text, fragments: library) {
        var fields = 0
        func count(_ selections: [GraphQLDocument.Field]) { for field in selections { fields += 1; count(field.selections) } }
        for operation in document.operations { count(operation.selections) }
        if fields > GraphQLDocument.maxFields * max(1, document.operations.count) { fatalError("\(fields) fields read with a fragment library") }
    }
    return 0
}
