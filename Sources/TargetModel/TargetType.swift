public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One API call, described the Moya 15 way; an app's API file compiles against this protocol
/// unchanged through the `Moya` product (or with `import TargetModel`).
///
/// stubd adds requirements with defaults, so existing targets need no change:
/// `sampleResponse` (what to answer; default `.networkResponse(200, sampleData)`),
/// `stubBehavior` (when; default `.immediate`; `.never` is served at once unless omitted) and
/// `sampleStream` (a streamed answer instead; default none), among others below.
public protocol TargetType {
    /// The server's base URL, e.g. `https://api.github.com`; its path and query are kept.
    var baseURL: URL { get }
    /// The path appended to `baseURL` (percent-encoded by Foundation; an empty path keeps baseURL).
    var path: String { get }
    /// The HTTP method.
    var method: Method { get }
    /// The stub body; default empty.
    var sampleData: Data { get }
    /// How the request is built.
    var task: Task { get }
    /// Which status codes the client accepts; default `.none`.
    var validationType: ValidationType { get }
    /// Headers the request carries; `nil` means none.
    var headers: [String: String]? { get }
    /// The full stub answer; default `.networkResponse(200, sampleData)`.
    var sampleResponse: EndpointSampleResponse { get }
    /// When the stub answers; default `.immediate`.
    var stubBehavior: StubBehavior { get }
    /// Opt-in: serve this target for every path that fits a template relative to `baseURL`, e.g.
    /// `/users/{login}`, instead of only its own path. Default nil (exact path).
    var pathTemplate: String? { get }
    /// Opt-in: how this target's requests are matched, overriding the table's policy
    /// (`TargetCompileOptions.match`). Default nil (the table's).
    var matchPolicy: MatchPolicy? { get }
    /// Headers a request must carry with the target's values even under `.shape` matching (an
    /// API key, a version header). Default none.
    var requiredHeaders: Set<String> { get }
    /// Opt-in: a streamed answer instead of `sampleResponse` (docs/STREAMS.md). Default nil.
    var sampleStream: SampleStream? { get }
}

extension TargetType {
    /// Moya's default: an empty body.
    public var sampleData: Data { Data() }
    /// Moya's default: no validation.
    public var validationType: ValidationType { .none }
    /// Moya's default endpoint mapping: status 200 with `sampleData`.
    public var sampleResponse: EndpointSampleResponse { .networkResponse(200, sampleData) }
    /// Moya's `immediatelyStub`.
    public var stubBehavior: StubBehavior { .immediate }
    /// Exact path only.
    public var pathTemplate: String? { nil }
    /// The table's policy.
    public var matchPolicy: MatchPolicy? { nil }
    /// None.
    public var requiredHeaders: Set<String> { [] }
    /// Not a stream.
    public var sampleStream: SampleStream? { nil }
}

extension URL {
    /// The URL Moya builds for a target: `baseURL` itself for an empty path, otherwise
    /// `baseURL.appendingPathComponent(path)` (so `?` in a path becomes `%3F`).
    public init<T: TargetType>(target: T) {
        let targetPath = target.path
        if targetPath.isEmpty {
            self = target.baseURL
        } else {
            self = target.baseURL.appendingPathComponent(targetPath)
        }
    }
}

/// Wraps any target so targets of different types can live in one list, as Moya's `MultiTarget`.
public enum MultiTarget: TargetType {
    /// The wrapped target.
    case target(any TargetType)

    /// Creates a wrapper around `target`.
    public init(_ target: any TargetType) { self = .target(target) }

    /// The wrapped target.
    public var target: any TargetType {
        switch self { case .target(let target): return target }
    }

    /// Passes through.
    public var baseURL: URL { target.baseURL }
    /// Passes through.
    public var path: String { target.path }
    /// Passes through.
    public var method: Method { target.method }
    /// Passes through.
    public var sampleData: Data { target.sampleData }
    /// Passes through.
    public var task: Task { target.task }
    /// Passes through.
    public var validationType: ValidationType { target.validationType }
    /// Passes through.
    public var headers: [String: String]? { target.headers }
    /// Passes through.
    public var sampleResponse: EndpointSampleResponse { target.sampleResponse }
    /// Passes through.
    public var stubBehavior: StubBehavior { target.stubBehavior }
    /// Passes through.
    public var pathTemplate: String? { target.pathTemplate }
    /// Passes through.
    public var matchPolicy: MatchPolicy? { target.matchPolicy }
    /// Passes through.
    public var requiredHeaders: Set<String> { target.requiredHeaders }
    /// Passes through.
    public var sampleStream: SampleStream? { target.sampleStream }
}
