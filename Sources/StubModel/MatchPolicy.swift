/// How a compiled target's stub recognises requests.
///
/// `exact` is the request this app sends, byte for byte in meaning: every header the target
/// sets, the exact parameter values and body. `shape` is what any client sends for the same
/// endpoint: method, path (or template), the body's media type, the parameter and field names
/// with any values, and only the headers the target lists in `requiredHeaders` — so an Android or web
/// teammate's requests (other platform headers, other values, curl's form Content-Type without
/// a charset) reach the target too.
public enum MatchPolicy: String, Sendable, CaseIterable {
    /// The app's own request.
    case exact
    /// Any client's request for the same endpoint.
    case shape
}
