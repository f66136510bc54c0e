import StubModel

/// Framing problems libevent 2.1 lets through that stubd refuses itself, before routing: two
/// different `Content-Length` values (libevent takes the first; a proxy in front may take the
/// other, which is how request smuggling starts). Answered 400 with `Connection: close`.
enum ProtocolChecks {
    static func refusal(for request: IncomingRequest) -> PreparedReply? {
        var first: String?
        for header in request.headers where header.name.equalsIgnoringCase("Content-Length") {
            if let first, first != header.value {
                return PreparedReply(status: 400, headers: [NameValue("Content-Type", "application/json")],
                                     body: Array("{\"error\": \"two different Content-Length values; send one\"}\n".utf8))
            }
            first = header.value
        }
        return nil
    }
}
