import StubModel

/// Any bytes as a JSON body (strict and as WireMock reads it), then through JSON paths (with a
/// catastrophic `=~`, held to its regex budget); a parsed value writes and reads back as the same
/// value, and sorts and hashes. Nesting past 512 is refused, never recursed into. (Partial
/// matches and near-miss differences run in FuzzServe, where the matchers are.)
let jsonPaths = ["$.a", "$..a", "$.a[*].b", "$[?(@.id > 1)]", "$.items[?(@.name =~ /(a+)+$/)]", "$..*"].compactMap { try? JSONPath.parse($0).get() }

func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? JSONParser.parse(bytes, lenient: true)
    guard let value = try? JSONParser.parse(bytes) else { return 0 }
    let written = JSONWriter.write(value, pretty: false)
    guard let again = try? JSONParser.parse(written) else { fatalError("written JSON does not read back: \(written.prefix(200))") }
    if again != value { fatalError("a value changed through the writer: \(written.prefix(200))") }
    for path in jsonPaths { _ = path.select(in: value) }
    _ = value.sortingKeys.hashValue
    return 0
}
