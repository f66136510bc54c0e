import CLibevent
import StubModel

/// A reply's headers as NUL-terminated C strings in one buffer, made once with the reply.
///
/// Passing a Swift `String` to `evhttp_add_header` copies any string short enough to be stored
/// inline (`Content-Type`, `119`) into a new heap array on every call; a route's headers are the
/// same for every request, so they are converted when the route is built instead.
struct HeaderBlock: Sendable {
    private let text: ContiguousArray<CChar>
    private let offsets: [(name: Int, value: Int)]

    init(_ pairs: [NameValue]) {
        var text = ContiguousArray<CChar>()
        var offsets: [(name: Int, value: Int)] = []
        for pair in pairs {
            let name = text.count
            text.append(contentsOf: pair.name.utf8.map { CChar(bitPattern: $0) })
            text.append(0)
            let value = text.count
            text.append(contentsOf: pair.value.utf8.map { CChar(bitPattern: $0) })
            text.append(0)
            offsets.append((name, value))
        }
        self.text = text
        self.offsets = offsets
    }

    /// Adds every header to evhttp's list `headers`, in order.
    func add(to headers: UnsafeMutablePointer<evkeyvalq>?) {
        guard !offsets.isEmpty else { return }
        text.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for offset in offsets { evhttp_add_header(headers, base + offset.name, base + offset.value) }
        }
    }
}
