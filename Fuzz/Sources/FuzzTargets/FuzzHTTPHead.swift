import StubModel
import StubdEngine

/// Any bytes as a connection's first bytes, as a request's headers (framing checks), as a proxy
/// request-target with its credentials, and as a `Range` against bodies of several lengths:
/// nothing traps (a `Range` end of 2^63−1 did), an early answer is a whole HTTP/1.1 head, a range
/// lies inside the body, a proxy arrival names a host and a real port.
func fuzzHTTPHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let kind = FirstBytes.classify(bytes, bodyLimit: 1 << 20)
    let answer = kind.answer(bodyLimit: 1 << 20)
    if kind != .ordinary && kind != .http2Preface && !answer.starts(with: Array("HTTP/1.1 4".utf8)) {
        fatalError("an early answer that is not a 4xx head: \(String(decoding: answer.prefix(40), as: UTF8.self))")
    }
    let text = String(decoding: bytes, as: UTF8.self)
    var headers: [NameValue] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(32) {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers.append(NameValue(String(line[..<colon]), String(line[line.index(after: colon)...])))
    }
    _ = ProtocolChecks.refusal(for: IncomingRequest(method: "POST", target: "/", headers: headers, body: []))
    for length in [0, 1, 10, 1000, Int.max] {
        switch ByteRanges.parse(text, length: length) {
        case .range(let range):
            if range.lowerBound < 0 || range.upperBound > length || range.isEmpty { fatalError("range \(range) of \(length) for \(text.debugDescription)") }
        case .none, .unsatisfiable: break
        }
    }
    _ = CheckedNumber.decimalDigits(text)
    // The proxy port's reading of a request-target and of its credentials (`serve --proxy-port`).
    for method in ["GET", "CONNECT"] {
        let authorization = headers + [NameValue("Proxy-Authorization", text)]
        if let arrival = ProxyArrival.parse(method: method, target: text, headers: authorization),
           arrival.host.isEmpty || !(1...65535).contains(arrival.port) {
            fatalError("a proxy arrival with no host or an impossible port: \(arrival) from \(text.debugDescription)")
        }
        _ = ProxyArrival.credentials(in: authorization)
    }
    return 0
}
