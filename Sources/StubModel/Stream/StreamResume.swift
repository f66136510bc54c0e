/// Where an event stream picks up when a client reconnects: an `EventSource` that lost its
/// stream (a `reset` or `close` fault, a dropped network) reconnects with the id of the last
/// event it read — `Last-Event-ID` (the header every browser sends) or `lastEventId` in the
/// query (what polyfills send, since a page cannot set the header) — and the server goes on after
/// that event (WHATWG HTML §9.2). Replaying from the first event would hand a page events it has
/// already shown.
extension StubStream {
    /// The query parameter polyfills carry the last event id in.
    public static let lastEventIDQueryName = "lastEventId"

    /// The id a reconnecting client sent: the `Last-Event-ID` header, else the `lastEventId` query
    /// parameter; nil when it sent neither, or an empty one (a fresh start).
    public static func lastEventID(headers: [NameValue], rawQuery: String?) -> String? {
        if let header = headers.first(where: { $0.name.equalsIgnoringCase("Last-Event-ID") })?.value, !header.isEmpty { return header }
        guard let rawQuery, rawQuery.contains(lastEventIDQueryName) else { return nil }
        return FormCoding.decodePairs(rawQuery).first { $0.name == lastEventIDQueryName && !$0.value.isEmpty }?.value
    }

    /// The stream as it continues after the event whose `id` is `lastID` (the last such event,
    /// should ids repeat), or nil when no event has that id (the client then gets the whole stream).
    /// A fault placed at or before that point already happened on the connection that broke and
    /// is left out; a later one keeps its place among the remaining events.
    public func resumed(after lastID: String) -> (stream: StubStream, skipped: Int)? {
        guard format == .sse, let index = events.lastIndex(where: { $0.id == lastID }) else { return nil }
        let skipped = index + 1
        var rest = self
        rest.events = Array(events[skipped...])
        if let fault, fault.after > skipped {
            rest.fault = StreamFault(fault.kind, after: fault.after - skipped, seconds: fault.seconds)
        } else {
            rest.fault = nil
        }
        return (rest, skipped)
    }
}
