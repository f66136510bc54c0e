public import StubModel
import StubdEngine
public import StubServer

/// Routes that load but will not behave as their author expects — a method libevent cannot
/// receive, a body Alamofire never sends on a GET, multipart Moya refuses for the method, a body
/// a status cannot carry, a HEAD answer's body, a delay over a minute (seconds meant as
/// milliseconds), a literal `{name}` segment — warned about by `stubd check` and `stubd serve`,
/// once when fixtures load. A check above the serving core: serving never asks.
public enum RouteLint {
    /// Every route's warnings, in declaration order.
    public static func warnings(_ table: RouteTable) -> [String] {
        table.routes.flatMap { warnings(for: $0.fixture) }
    }

    /// The methods the engine can receive (libevent 2.1's nine, from its published capabilities).
    private static let servableMethods = Set(EngineCapabilities.libevent.methods)

    /// The methods Moya sends multipart uploads with (`Method.supportsMultipart` in Moya 15).
    private static let multipartMethods: Set<String> = ["POST", "PUT", "PATCH", "CONNECT"]

    /// What one route does that will not behave as its author expects.
    public static func warnings(for fixture: Fixture) -> [String] {
        var warnings: [String] = []
        let request = fixture.request
        if !servableMethods.contains(request.method) {
            warnings.append("\(fixture): method \(request.method) cannot be received by libevent 2.1 (it answers 501); this route is unreachable")
        }
        if ["GET", "HEAD"].contains(request.method), request.body.match != .any {
            warnings.append("\(fixture): a \(request.method) with a body is never sent by Alamofire (it fails with bodyDataInGETRequest); this route is unreachable from Moya clients")
        }
        if case .multipart = request.body.match, !Self.multipartMethods.contains(request.method) {
            warnings.append("\(fixture): Moya refuses multipart uploads with \(request.method) (only POST, PUT, PATCH, CONNECT); this route is unreachable from Moya clients")
        }
        for case .response(let response) in fixture.outcomes where !response.body.isEmpty && !PreparedReply.statusAllowsBody(response.status) {
            warnings.append("\(fixture): status \(response.status) cannot carry a body over HTTP; the \(response.body.count)-byte body is not sent")
        }
        if request.method == "HEAD", fixture.outcomes.contains(where: { if case .response(let r) = $0 { !r.body.isEmpty } else { false } }) {
            warnings.append("\(fixture): a HEAD answer carries no body; clients get the headers and Content-Length, never the body (sampleData)")
        }
        if let delay = fixture.delay, delay > 60 {
            warnings.append("\(fixture): delay \(JSONWriter.format(delay)) s is over a minute; if you meant milliseconds write \"\(JSONWriter.format(delay))ms\"")
        }
        if case .literal(let path) = request.path, let segment = path.segments.first(where: { $0.count > 2 && $0.hasPrefix("{") && $0.hasSuffix("}") }) {
            warnings.append("\(fixture): path segment \"\(segment)\" is matched literally; did you mean \"pathTemplate\"?")
        }
        return warnings
    }
}
