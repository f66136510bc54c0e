import StubModel

/// Any bytes as a path, a query and a form body: decoding must not crash, and the path's
/// canonical key must be the same whether it is computed on the raw path's fast path or from
/// its decoded segments (exact routes are hashed on it).
func fuzzCanonicalisation(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let path = "/" + text
    let segments = PathSegments(raw: path)
    let fast = PathSegments.key(raw: path)
    if fast != segments.key {
        fatalError("path key mismatch for \(path.debugDescription): fast \(fast.debugDescription), segments \(segments.key.debugDescription)")
    }
    _ = segments.description
    let pairs = FormCoding.decodePairs(text)
    _ = pairs.sorted()
    _ = MediaType(text)
    _ = PathTemplate.parse(path)
    return 0
}
