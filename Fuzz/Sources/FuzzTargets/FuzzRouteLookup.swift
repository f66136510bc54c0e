import StubModel
import StubServer

/// A fixed table of exact, templated, query, header and body routes, and any bytes as a request
/// (method, target, one header, body): lookup must answer a hit or a miss with near misses, never
/// crash; a hit must be a route that really matches what was sent.
let lookupTable: RouteTable = {
    func route(_ method: String, _ path: PathPattern, query: [NameValue] = [], headers: [NameValue] = [], body: BodyPattern = .any) -> Fixture {
        Fixture(name: "\(method) \(path)", source: "fuzz", request: RequestPattern(method: method, path: path, query: query, headers: headers, body: body),
                outcome: .response(StubHTTPResponse(status: 200)))
    }
    let template = { (text: String) in PathPattern.template(try! PathTemplate.parse(text).get()) }
    let literal = { (text: String) in PathPattern.literal(PathSegments(raw: text)) }
    return try! RouteTable(fixtures: [
        route("GET", literal("/zen")),
        route("GET", literal("/users/octocat"), query: [NameValue("page", "2")]),
        route("GET", template("/users/{login}/repos")),
        route("GET", template("/repos/{owner}/{repo}")),
        route("GET", template("/repos/{owner}/issues")),
        route("POST", literal("/issues"), headers: [NameValue("Content-Type", "application/json")],
              body: .json(.object([("title", .string("bug"))]))),
        route("POST", literal("/form"), body: .form([NameValue("a", "1"), NameValue("b", "2")])),
        route("PUT", literal("/upload"), body: .multipart([MultipartPart(name: "file", fileName: "a.txt", contentType: "text/plain", body: [1, 2])])),
        route("DELETE", literal("/a%2Fb/c")),
    ])
}()

let lookupMethods = ["GET", "POST", "PUT", "DELETE", "HEAD", "PATCH", "OPTIONS"]

func fuzzRouteLookup(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let rest = bytes.dropFirst()
    let parts = rest.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    let target = parts.first ?? "/"
    var headers: [NameValue] = []
    if parts.count > 1, let colon = parts[1].firstIndex(of: ":") {
        headers.append(NameValue(String(parts[1][..<colon]), String(parts[1][parts[1].index(after: colon)...])))
    }
    let body = parts.count > 2 ? Array(parts[2].utf8) : []
    let request = IncomingRequest(method: lookupMethods[Int(first) % lookupMethods.count], target: target, headers: headers, body: body)
    switch lookupTable.lookup(request) {
    case .hit(let route):
        let method = request.method == "HEAD" && route.fixture.request.method == "GET" ? "GET" : request.method
        if route.fixture.request.method != method { fatalError("hit \(route.name) for \(request.method) \(target.debugDescription)") }
    case .miss(let nearMisses):
        if nearMisses.count > 3 { fatalError("more than three near misses") }
    }
    return 0
}
