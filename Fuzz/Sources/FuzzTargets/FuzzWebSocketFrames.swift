import StubModel

/// Any bytes as frames from a client and from a server, fed in pieces whose sizes come from the
/// input: a failure ends reading, a message never passes its limit, and reading the same bytes in
/// one piece gives the same events.
func fuzzWebSocketFrames(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let step = Int(first % 16) + 1
    for fromServer in [false, true] {
        var whole = WebSocketFrameReader(messageLimit: 4096, fromServer: fromServer)
        let once = whole.read(Array(bytes.dropFirst()))
        var pieces = WebSocketFrameReader(messageLimit: 4096, fromServer: fromServer)
        var events: [WebSocketFrameReader.Event] = []
        var offset = 1
        while offset < bytes.count {
            events += pieces.read(Array(bytes[offset..<min(bytes.count, offset + step)]))
            offset += step
        }
        if events != once { fatalError("pieces of \(step) read otherwise than the whole") }
        for event in events {
            if case .message(let message) = event, message.bytes.count > 4096 { fatalError("a message past its limit") }
        }
        if let failure = events.firstIndex(where: { if case .failure = $0 { return true } else { return false } }), failure != events.count - 1 {
            fatalError("events after a failure")
        }
    }
    return 0
}
