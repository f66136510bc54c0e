/// Where a route's fault step (a `reset`, `empty` or `hang` in its `responses`, or a scenario
/// route's) makes the client fail: inside the body after a `200` head (the default: every client
/// measured then reports a failure once it reads the body), or before any status (a `502` head
/// with two lengths that clients fail to read or read as a `502` — what a browser navigation or a
/// WebView needs to show its error page, and what code that checks only the status sees). Either
/// way the client got response bytes, so no client silently re-sends it and takes the next step
/// (docs/FAULTS.md; urllib3's default retries aside).
public enum FaultStepPlacement: String, Sendable, Equatable, CaseIterable {
    /// `HTTP/1.1 200`, `Content-Length: 1`, then the close (for HEAD: as `beforeStatus`).
    case inBody
    /// `HTTP/1.1 502` with two different `Content-Length`s, for every method (RFC 9112 §6.3).
    case beforeStatus
}
