import CLibevent
import StubdHTTP

/// A reply's headers as NUL-terminated C strings, made once with the reply.
///
/// Passing a Swift `String` to `evhttp_add_header` copies any string short enough to be stored
/// inline (`Content-Type`, `119`) into a new heap array on every call; a route's headers are the
/// same for every request, so they are converted when the route is built instead. Two or more
/// are folded into one evhttp entry (`Content-Type: a\r\nX-Other: b`, `clev_append_header_lines`):
/// evhttp writes an entry as one `key: value` line with a `printf`, so each header of its own cost
/// about 2,200 instructions per reply (allocations, a value check, a `printf`). Headers evhttp
/// looks up by name (`Date`, `Proxy-Connection`, `Keep-Alive`) keep entries of their own.
struct HeaderBlock: Sendable {
    private let text: ContiguousArray<CChar>
    private let offsets: [(name: Int, value: Int)]
    /// Offsets of the folded entry's name and value in `text`, when the headers are folded.
    private let folded: (name: Int, value: Int)?

    /// Names evhttp reads from a reply's headers; never folded into another entry.
    private static let lookedUp: Set<String> = ["date", "content-length", "connection", "proxy-connection", "keep-alive", "transfer-encoding"]

    init(_ pairs: [NameValue]) {
        var text = ContiguousArray<CChar>()
        func append(_ string: String) {
            text.append(contentsOf: string.utf8.map { CChar(bitPattern: $0) })
            text.append(0)
        }
        let foldable = pairs.count > 1 && !pairs.contains { Self.lookedUp.contains($0.name.lowercased()) }
        if foldable {
            let name = text.count
            append(pairs[0].name)
            let value = text.count
            append(([pairs[0].value] + pairs.dropFirst().map { "\($0.name): \($0.value)" }).joined(separator: "\r\n"))
            folded = (name, value)
            offsets = []
        } else {
            var offsets: [(name: Int, value: Int)] = []
            for pair in pairs {
                let name = text.count
                append(pair.name)
                let value = text.count
                append(pair.value)
                offsets.append((name, value))
            }
            folded = nil
            self.offsets = offsets
        }
        self.text = text
    }

    /// Adds every header to evhttp's list `headers`, in order.
    func add(to headers: UnsafeMutablePointer<evkeyvalq>?) {
        guard folded != nil || !offsets.isEmpty else { return }
        text.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            if let folded, let headers {
                _ = clev_append_header_lines(headers, base + folded.name, base + folded.value)
                return
            }
            for offset in offsets { evhttp_add_header(headers, base + offset.name, base + offset.value) }
        }
    }
}
