import CLibevent

/// Work a loop holds between callbacks — a delayed reply, a timed script, a streamed reply, a
/// conversation either side, an upstream call, a request of stubd's own waiting for its time —
/// kept alive by the loop's one `InFlightRegistry` until it ends, or until the server stops.
protocol InFlight: AnyObject {
    /// When it is stopped as the server stops.
    var shutdownOrder: InFlightShutdown { get }
    /// The server is stopping: free what it holds (timers, upstream connections) and end what it
    /// plays, without calling back into the loop.
    func serverStopped()
    /// The server is draining (it stops accepting and waits for work in flight): work that would
    /// last indefinitely says goodbye now (a WebSocket's close 1001); the rest finishes as usual.
    func serverDraining()
}

extension InFlight {
    func serverDraining() {}
}

/// The order work is stopped in at shutdown: what still writes to a client's connection before
/// the fronts free those connections (streams, then conversations, then the upstream sides of
/// relayed ones), everything else after.
enum InFlightShutdown: Int, Comparable {
    case streams, conversations, upstreamConversations, afterConnections

    static func < (a: InFlightShutdown, b: InFlightShutdown) -> Bool { a.rawValue < b.rawValue }
}

/// The loop's side of a `ReplyStream` being written to a client — on an HTTP/1.1 connection
/// (`StreamWriter`) or an HTTP/2 stream (`HTTP2StreamWriter`): what a mailbox wake-up for the
/// stream reaches.
protocol StreamSink: AnyObject {
    /// Pieces were written to the stream, it finished or overflowed: take what is ready.
    func flush()
}

/// Everything in flight on one loop, in one table (nghttp2's libevent server keeps one list), with
/// the two lookups the loop needs: a streamed reply by its stream (a mailbox wake-up, a script's
/// next write) and by its client connection (a drain, a close). Confined to the loop's thread.
struct InFlightRegistry {
    private var items: [ObjectIdentifier: any InFlight] = [:]
    private var streams: [ObjectIdentifier: any StreamSink] = [:]
    private var streamConnections: [OpaquePointer: ObjectIdentifier] = [:]

    /// Keeps `item` alive until `letGo` or shutdown.
    mutating func hold(_ item: any InFlight) {
        items[ObjectIdentifier(item)] = item
    }

    /// Forgets `item` (it ended).
    mutating func letGo(_ item: AnyObject) {
        items[ObjectIdentifier(item)] = nil
    }

    /// Whether nothing is in flight.
    var isEmpty: Bool { items.isEmpty }

    /// Everything in flight now (a drain tells each).
    var all: [any InFlight] { Array(items.values) }

    /// Keeps a streamed reply, findable by its stream and its connection.
    mutating func hold(_ writer: StreamWriter) {
        hold(writer as any InFlight)
        streams[ObjectIdentifier(writer.stream)] = writer
        streamConnections[writer.connection] = ObjectIdentifier(writer.stream)
    }

    /// Forgets a streamed reply.
    mutating func letGo(_ writer: StreamWriter) {
        letGo(writer as AnyObject)
        streams[ObjectIdentifier(writer.stream)] = nil
        streamConnections[writer.connection] = nil
    }

    /// Makes `sink` what a wake-up for `stream` reaches, until `detach`: an HTTP/2 stream's
    /// writer, which its connection keeps alive and stops.
    mutating func attach(_ sink: HTTP2StreamWriter, to stream: ReplyStream) {
        streams[ObjectIdentifier(stream)] = sink
    }

    /// Forgets the sink of `stream`.
    mutating func detach(_ stream: ReplyStream) {
        streams[ObjectIdentifier(stream)] = nil
    }

    /// Whatever writes `stream` to its client, while it does.
    func sink(of stream: AnyObject) -> (any StreamSink)? { streams[ObjectIdentifier(stream)] }

    /// The HTTP/1.1 streamed reply writing `stream`, while it does.
    func writer(of stream: AnyObject) -> StreamWriter? { streams[ObjectIdentifier(stream)] as? StreamWriter }

    /// The streamed reply on a client connection, if one is.
    func writer(on connection: OpaquePointer) -> StreamWriter? {
        guard !streamConnections.isEmpty, let id = streamConnections[connection] else { return nil }
        return streams[id] as? StreamWriter
    }

    /// Forgets, and hands over in shutdown order, everything held that stops before `limit` (all
    /// of it when nil): the caller stops each outside the registry, since stopping one may end
    /// another.
    mutating func take(before limit: InFlightShutdown? = nil) -> [any InFlight] {
        let taken = items.values.filter { limit == nil || $0.shutdownOrder < limit! }.sorted { $0.shutdownOrder < $1.shutdownOrder }
        for item in taken { items[ObjectIdentifier(item)] = nil }
        if limit == nil || limit! > .streams {
            streams.removeAll()
            streamConnections.removeAll()
        }
        return taken
    }
}

extension StreamWriter: InFlight {
    var shutdownOrder: InFlightShutdown { .streams }
}

extension WebSocketConnection: InFlight {
    var shutdownOrder: InFlightShutdown { .conversations }
}

extension UpstreamWebSocket: InFlight {
    var shutdownOrder: InFlightShutdown { .upstreamConversations }
}

extension ScriptPlayer: InFlight {}

extension UpstreamCall: InFlight {
    var shutdownOrder: InFlightShutdown { .afterConnections }
}

extension OwnRequest: InFlight {
    var shutdownOrder: InFlightShutdown { .afterConnections }

    /// The request is dropped unsent.
    func serverStopped() {
        if let timer { event_free(timer) }
        timer = nil
    }
}
