public import StubdHTTP
import StubdSystem

/// A request as the engine received it, in Swift types: what routing and logging work on.
///
/// The path and query are kept raw (percent-encoded, as on the wire) and decoded by the matcher,
/// so nothing is decoded for requests that never need it.
public struct IncomingRequest: Sendable {
    /// The fields, in one box: a request is passed on many times (the handler, the lookup, the
    /// exchange, the journal), and each copy is one reference count instead of one per field.
    /// A write to a shared box copies it first, so the struct keeps value semantics.
    /// Visible to inlined code, so reading a field from another module is a load, not a call; no
    /// dynamic exclusivity check either (inlined into another module, each read would pay
    /// `swift_beginAccess`: about 1,100 instructions a request, measured): a box is written only
    /// through `unique`, never while it is read.
    @usableFromInline final class Storage: @unchecked Sendable {
        @usableFromInline @exclusivity(unchecked) var method: String
        @usableFromInline @exclusivity(unchecked) var rawPath: String
        @usableFromInline @exclusivity(unchecked) var rawQuery: String?
        @usableFromInline @exclusivity(unchecked) var headers: [NameValue]
        @usableFromInline @exclusivity(unchecked) var body: [UInt8]
        @usableFromInline @exclusivity(unchecked) var peer = ""
        @usableFromInline @exclusivity(unchecked) var connection: ConnectionUse?
        @usableFromInline @exclusivity(unchecked) var isTLS = false
        @usableFromInline @exclusivity(unchecked) var isHTTP2 = false
        @usableFromInline @exclusivity(unchecked) var proxied: ProxyArrival?
        /// Whether a `Range` header came: set by the engine while it copies the headers out
        /// (nil: not known, looked up when asked).
        @usableFromInline @exclusivity(unchecked) var sentRange: Bool?
        /// Whether an `Upgrade` header came, the same way.
        @usableFromInline @exclusivity(unchecked) var sentUpgrade: Bool?
        /// Bytes of the request target and headers, counted by the engine as it copies them.
        @usableFromInline @exclusivity(unchecked) var headBytes: Int?

        init(method: String, rawPath: String, rawQuery: String?, headers: [NameValue], body: [UInt8]) {
            self.method = method
            self.rawPath = rawPath
            self.rawQuery = rawQuery
            self.headers = headers
            self.body = body
        }

        func copy() -> Storage {
            let copy = Storage(method: method, rawPath: rawPath, rawQuery: rawQuery, headers: headers, body: body)
            copy.peer = peer
            copy.connection = connection
            copy.isTLS = isTLS
            copy.isHTTP2 = isHTTP2
            copy.proxied = proxied
            return copy
        }
    }

    @usableFromInline var storage: Storage

    /// The box to write to: this value's own (copied first when shared).
    private var unique: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }
    }

    /// The method from the request line.
    public var method: String {
        @inlinable get { storage.method }
        set { unique.method = newValue }
    }
    /// The path as sent, percent-encoded, without query or fragment.
    public var rawPath: String {
        @inlinable get { storage.rawPath }
        set { unique.rawPath = newValue }
    }
    /// The query as sent (after `?`), or nil when there is none.
    public var rawQuery: String? {
        @inlinable get { storage.rawQuery }
        set { unique.rawQuery = newValue }
    }
    /// Headers in arrival order, names as sent.
    public var headers: [NameValue] {
        @inlinable get { storage.headers }
        set { unique.headers = newValue }
    }
    /// The (de-chunked) body.
    public var body: [UInt8] {
        @inlinable get { storage.body }
        set { unique.body = newValue }
    }
    /// The client's numeric address (`127.0.0.1`, `::1`); empty when not known (a request built
    /// in memory).
    public var peer: String {
        @inlinable get { storage.peer }
        set { unique.peer = newValue }
    }
    /// The connection it came on; nil when built in memory.
    public var connection: ConnectionUse? {
        @inlinable get { storage.connection }
        set { unique.connection = newValue }
    }
    /// Whether it came over HTTPS (`--https-port`).
    public var isTLS: Bool {
        @inlinable get { storage.isTLS }
        set { unique.isTLS = newValue }
    }
    /// Whether it came on an HTTP/2 stream (`HTTP2Connection`) rather than over HTTP/1.x.
    public var isHTTP2: Bool {
        @inlinable get { storage.isHTTP2 }
        set { unique.isHTTP2 = newValue }
    }

    /// How it reached stubd as a forward proxy (`serve --proxy-port`); nil on the direct ports.
    public var proxied: ProxyArrival? {
        @inlinable get { storage.proxied }
        set { unique.proxied = newValue }
    }

    /// Whether the request carries `Range` (`ByteRanges` asks before anything else, so a request
    /// without one pays a flag test, not a header lookup).
    public var sentRange: Bool {
        get { storage.sentRange ?? (header("Range") != nil) }
        set { unique.sentRange = newValue }
    }

    /// Whether the request carries `Upgrade` (a WebSocket's handshake is looked at only then).
    public var sentUpgrade: Bool {
        storage.sentUpgrade ?? (header("Upgrade") != nil)
    }

    /// How many bytes the request target and the headers hold: what a template reading the
    /// request may have to go through (the off-loop rule looks at it beside the body's size).
    @inlinable @inline(__always)
    public var headBytes: Int {
        storage.headBytes ?? (rawPath.utf8.count + (rawQuery?.utf8.count ?? 0) + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count })
    }

    /// The engine's note, made while it copied the headers out, on a request it has just made
    /// (its box is its own: no uniqueness check).
    mutating func noteCopiedHeaders(sentRange: Bool, sentUpgrade: Bool = false, headBytes: Int? = nil) {
        storage.sentRange = sentRange
        storage.sentUpgrade = sentUpgrade
        storage.headBytes = headBytes
    }

    /// Creates a request.
    public init(method: String, rawPath: String, rawQuery: String? = nil, headers: [NameValue] = [], body: [UInt8] = []) {
        storage = Storage(method: method, rawPath: rawPath, rawQuery: rawQuery, headers: headers, body: body)
    }

    /// Splits a request-target (`/a/b?x=1`, or the absolute form `http://host/a?x=1`) into path
    /// and query; a fragment is dropped.
    public init(method: String, target: String, headers: [NameValue] = [], body: [UInt8] = []) {
        if let split = IncomingRequest.splitOriginForm(target) {
            self.init(method: method, rawPath: split.path, rawQuery: split.query, headers: headers, body: body)
            return
        }
        var utf8 = Substring(target).utf8[...]
        if utf8.first != UInt8(ascii: "/"), let colon = utf8.firstIndex(of: UInt8(ascii: ":")),
           utf8[utf8.index(after: colon)...].starts(with: "//".utf8) {
            let authority = utf8[utf8.index(colon, offsetBy: 3)...]
            utf8 = authority.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }.map { authority[$0...] } ?? "/".utf8[...]
        }
        if let hash = utf8.firstIndex(of: UInt8(ascii: "#")) { utf8 = utf8[..<hash] }
        var query: String?
        if let mark = utf8.firstIndex(of: UInt8(ascii: "?")) {
            query = String(Substring(utf8[utf8.index(after: mark)...]))
            utf8 = utf8[..<mark]
        }
        self.init(method: method, rawPath: utf8.isEmpty ? "/" : String(Substring(utf8)), rawQuery: query, headers: headers, body: body)
    }

    /// The common case, `/path?query` with no fragment, split in one pass over contiguous bytes;
    /// nil for anything else (absolute form, fragments), which the general path handles.
    @inline(__always)
    private static func splitOriginForm(_ target: String) -> (path: String, query: String?)? {
        target.utf8.withContiguousStorageIfAvailable { bytes -> (path: String, query: String?)? in
            guard bytes.first == UInt8(ascii: "/") else { return nil }
            var mark = -1
            for index in bytes.indices {
                let byte = bytes[index]
                if byte == UInt8(ascii: "#") { return nil }
                if byte == UInt8(ascii: "?") && mark < 0 { mark = index }
            }
            guard mark >= 0 else { return (target, nil) }
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[..<mark]), as: UTF8.self),
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[(mark + 1)...]), as: UTF8.self))
        } ?? nil
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        // Indexed in place: `first(where:)` copied (retained) every header it passed.
        let headers = storage.headers
        for index in headers.indices where headers[index].name.equalsIgnoringCase(name) { return headers[index].value }
        return nil
    }
}

extension IncomingRequest {
    /// The server the request is for, one name (`HostName`): the forward proxy's target, else
    /// `X-Stubd-Host` (a client pointed at stubd naming the API it stands for), else `Host`. Read
    /// when asked: only a lookup among routes that name hosts needs it.
    public var server: String? {
        if let proxied { return proxied.host }
        return (header("X-Stubd-Host") ?? header("Host")).flatMap(HostName.normalized)
    }
}
