/// Where a route's fault step (a `reset`, `empty` or `hang` in its `responses`, or a scenario
/// route's) makes the client fail: before any status (the default: a `502` head with two
/// different non-zero lengths, which every client measured fails to read or, for HEAD, reads as
/// a `502` — so a browser navigation or a WebView shows its error page and code that checks only
/// the status sees the failure), or inside the body after a `200` head (for an app whose code
/// must meet the failure while reading the body). Either way the client got response bytes, so
/// no client silently re-sends it and takes the next step (docs/FAULTS.md; urllib3's default
/// retries aside).
public enum FaultStepPlacement: String, Sendable, Equatable, CaseIterable {
    /// `HTTP/1.1 502`, `Content-Length: 1` and `Content-Length: 2`, then the close, for every
    /// method (RFC 9112 §6.3: unrecoverable; a client that takes either length finds the body cut).
    case beforeStatus
    /// `HTTP/1.1 200`, `Content-Length: 1`, then the close (for HEAD, whose answer has no body to
    /// cut: as `beforeStatus`).
    case inBody
}
