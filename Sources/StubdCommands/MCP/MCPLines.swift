import StubdSystem

/// `stubd mcp`'s standard input as one message per line, read in pieces of at most 64 KiB and
/// never holding more than one message's limit: a line longer than `MCPServer.maxLine` is skipped
/// as it arrives (its bytes are dropped up to its newline, however long it is) and reported once.
struct MCPLines: Sequence, IteratorProtocol {
    /// One line, or the report that one was too long.
    enum Item: Equatable {
        case line(String)
        case tooLong
    }

    private let read: () -> [UInt8]
    private let limit: Int
    private var pending: [UInt8] = []
    private var start = 0
    /// Where the search for the next newline goes on from (bytes before it hold none).
    private var searched = 0
    private var skipping = false
    private var finished = false

    /// Lines from `read` (a piece at a time; empty at the end), each up to `limit` bytes.
    init(limit: Int = MCPServer.maxLine, read: @escaping () -> [UInt8]) {
        self.limit = limit
        self.read = read
    }

    /// Lines from the process's standard input.
    static func standardInput() -> MCPLines {
        MCPLines { System.readSome(0, upTo: 64 << 10) }
    }

    mutating func next() -> Item? {
        while true {
            if let newline = pending[Swift.max(start, searched)...].firstIndex(of: 0x0A) {
                let line = pending[start..<newline]
                start = newline + 1
                searched = start
                compact()
                if skipping {
                    skipping = false
                    return .tooLong
                }
                return .line(String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self))
            }
            searched = pending.count
            if pending.count - start > limit {
                // Over the limit with no newline yet: drop what came, keep dropping until one does.
                skipping = true
                pending.removeAll(keepingCapacity: true)
                start = 0
                searched = 0
            }
            guard !finished else {
                defer { pending = []; start = 0; searched = 0 }
                if skipping { skipping = false; return .tooLong }
                return pending.count > start ? .line(String(decoding: pending[start...], as: UTF8.self)) : nil
            }
            let piece = read()
            if piece.isEmpty { finished = true } else { pending += piece }
        }
    }

    /// Drops the lines already given, once they are most of the buffer (linear in what is read).
    private mutating func compact() {
        if start > 1 << 16, start * 2 > pending.count {
            pending.removeFirst(start)
            searched -= start
            start = 0
        }
    }
}
