/// What one request of a stream receives, worked out before the first byte: each write with the
/// pause before it, and how the stream ends. Pure (the server makes an engine script of it), so
/// pacing, splits and faults are tested without sockets.
public struct StreamWrites: Sendable, Equatable {
    /// One write.
    public struct Write: Sendable, Equatable {
        /// Seconds after the previous write (or the head).
        public var after: Double
        /// The bytes.
        public var bytes: [UInt8]
    }

    /// How the stream ends after its writes.
    public enum Ending: Sendable, Equatable {
        /// The body ends properly.
        case finish
        /// A TCP reset.
        case reset
        /// A close without the body's end.
        case close
        /// Nothing more; closed after `seconds` (nil: the server's hang cap).
        case stall(seconds: Double?)
    }

    /// The writes, in order.
    public var writes: [Write]
    /// The ending.
    public var ending: Ending
    /// Seconds from the last write to the ending (the pause the next event would have had).
    public var endingAfter: Double
    /// Events sent whole (a split event counts once; a malformed one counts).
    public var events: Int
}

extension StubStream {
    /// The writes for one request: `payloads[i]` is event `i`'s data as rendered (nil: its own),
    /// `random` gives values in 0..<1 for the jitter (the session's seeded sequence), and every
    /// pause is divided by `speed` (`--replay-speed`; `.infinity` sends the events at once — a
    /// split's gap stays, so its pieces still arrive apart).
    /// `encoded[i]`, when given, is event `i` as written, encoded once for every request (a
    /// large stream is then shared by its clients instead of copied per client).
    public func writes(payloads: [String?] = [], encoded: [[UInt8]] = [], speed: Double = 1, random: () -> Double = { 0.5 }) -> StreamWrites {
        var writes: [StreamWrites.Write] = []
        var ending = StreamWrites.Ending.finish
        var endingAfter = 0.0
        var sent = 0
        for (index, event) in events.enumerated() {
            let pause = pacing.pause(before: index, own: event.delay, random: pacing.jitter > 0 ? random() : 0.5) / speed
            if let fault, fault.after == index, fault.kind != .malformed {
                ending = Self.ending(fault)
                endingAfter = pause
                return StreamWrites(writes: writes, ending: ending, endingAfter: endingAfter, events: sent)
            }
            let bytes: [UInt8]
            let payload = index < payloads.count ? payloads[index] : nil
            if let fault, fault.kind == .malformed, fault.after == index {
                bytes = StreamFault.malformed(event, payload: payload, format: format)
            } else if payload == nil, index < encoded.count {
                bytes = encoded[index]
            } else {
                bytes = event.encoded(as: format, data: payload)
            }
            if let split, let cut = split.cut(bytes) {
                writes.append(.init(after: pause, bytes: Array(bytes[..<cut])))
                writes.append(.init(after: StreamSplit.gap, bytes: Array(bytes[cut...])))
            } else if !bytes.isEmpty {
                writes.append(.init(after: pause, bytes: bytes))
            }
            sent += 1
        }
        if let fault, fault.after >= events.count, fault.kind != .malformed {
            ending = Self.ending(fault)
            endingAfter = pacing.between / speed
        }
        return StreamWrites(writes: writes, ending: ending, endingAfter: endingAfter, events: sent)
    }

    private static func ending(_ fault: StreamFault) -> StreamWrites.Ending {
        switch fault.kind {
        case .reset: return .reset
        case .close: return .close
        case .stall: return .stall(seconds: fault.seconds)
        case .end, .malformed: return .finish
        }
    }
}
