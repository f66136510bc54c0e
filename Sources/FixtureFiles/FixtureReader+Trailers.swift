import StubModel

// A response's trailers: fields sent after its body.
extension FixtureReader {
    /// `"trailers": {"Name": "value"}`: fields HTTP lets follow a body (RFC 9110 §6.5), so none
    /// that frames, routes or authenticates a message, and only on a status that has a body.
    func readTrailers(_ value: JSONValue?, status: Int, at field: String) throws(FixtureError) -> [NameValue] {
        let trailers = try readPairs(value, at: field)
        guard !trailers.isEmpty else { return [] }
        guard status >= 200, status != 204, status != 304 else {
            throw fail(field, "a \(status) answer has no body, so nothing can follow it; remove the trailers or use a status that carries a body")
        }
        let forbidden: Set<String> = ["content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer", "host",
                                      "content-type", "content-encoding", "content-range", "authorization", "set-cookie", "cache-control"]
        for trailer in trailers {
            if forbidden.contains(trailer.name.lowercased()) {
                throw fail(join(field, trailer.name), "\(trailer.name) cannot be a trailer (RFC 9110 §6.5.1: it frames, routes or describes the message, so clients ignore it after the body); send it in headers")
            }
            if !HTTPSyntax.isToken(trailer.name) {
                throw fail(join(field, trailer.name), "\"\(trailer.name)\" is not a valid field name (letters, digits and !#$%&'*+-.^_`|~ only; no spaces or colons)")
            }
            if let bad = HTTPSyntax.firstInvalidFieldValueCharacter(trailer.value) {
                throw fail(join(field, trailer.name), "the value contains \(bad), which HTTP field values cannot carry; remove it")
            }
        }
        return trailers
    }
}
