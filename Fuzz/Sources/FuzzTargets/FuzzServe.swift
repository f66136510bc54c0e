import FixtureFiles
import StubModel
import StubServer
import StubdEngine
import StubdRuntime
import StubdSystem

/// Any bytes as a request — method, target, headers, body — to a whole stubd served in memory
/// whose routes read every kind of remote input: templates with request values in helpers
/// (substring, replace, join, date offsets, jsonPath, loops), GraphQL (batches, `application/graphql`,
/// variables echoed with their JSON type), JSON exact, partial and
/// jsonPath bodies, forms, multipart, a catastrophic regex, a templated stream, a `Range` on a
/// plain body, routes that name hosts (so the request's `Host` and `X-Stubd-Host` are read through
/// `HostName`, which each header value is also given to directly). Every request is answered and
/// the server lives.
let serveFixtures = #"""
{"routes": [
  {"name": "plain", "request": {"method": "GET", "path": "/plain"}, "response": {"text": "0123456789abcdef"}},
  {"name": "substring", "request": {"method": "POST", "path": "/t/substring"}, "response": {"template": true, "text": "{{substring request.body request.headers.a request.headers.b}}"}},
  {"name": "replace", "request": {"method": "POST", "path": "/t/replace"}, "response": {"template": true, "text": "{{replace request.body request.headers.a request.body}}"}},
  {"name": "join", "request": {"method": "POST", "path": "/t/join"}, "response": {"template": true, "text": "{{join (split request.body ',') request.body}}"}},
  {"name": "date", "request": {"method": "POST", "path": "/t/date"}, "response": {"template": true, "text": "{{date '2020-01-01T00:00:00Z' offset=request.body format='epoch'}} {{math request.headers.a '*' request.body}}"}},
  {"name": "each", "request": {"method": "POST", "path": "/t/each"}, "response": {"template": true, "text": "{{#each (jsonPath request.body '$..*') as |x|}}{{x}}{{/each}}"}},
  {"name": "jsonvalue", "request": {"method": "POST", "path": "/t/json"}, "response": {"template": true, "json": {"k": "{{jsonPath request.body '$.a'}}", "q": "{{request.query.q}}"}}},
  {"name": "graphql", "request": {"method": "POST", "path": "/graphql", "graphql": {"operationName": "Q", "variables": {"id": 7}}}, "response": {"json": {"data": {}}}},
  {"name": "graphql-echo", "request": {"method": "POST", "path": "/graphql", "graphql": "V"}, "response": {"template": true, "json": {"data": {"v": "{{graphql.variables.id}}", "w": "{{graphql.variables.a.b}}"}}}},
  {"name": "exact", "request": {"method": "POST", "path": "/json/exact", "body": {"json": {"a": [1, {"b": "x"}]}}}, "response": {"text": "exact"}},
  {"name": "partial", "request": {"method": "POST", "path": "/json/partial", "body": {"json": {"a": 1}, "ignoreExtraElements": true, "ignoreArrayOrder": true}}, "response": {"text": "partial"}},
  {"name": "path", "request": {"method": "POST", "path": "/json/path", "body": {"jsonPath": {"expression": "$.items[?(@.n =~ /(a+)+$/)]", "equalTo": "x"}}}, "response": {"text": "path"}},
  {"name": "form", "request": {"method": "POST", "path": "/form", "body": {"form": {"a": "1", "b": ["2", "3"]}}}, "response": {"text": "form"}},
  {"name": "multipart", "request": {"method": "POST", "path": "/multipart", "body": {"multipart": [{"name": "f", "fileName": "a.txt", "text": "hi"}]}}, "response": {"text": "multipart"}},
  {"name": "regex", "request": {"method": "POST", "path": "/regex", "body": {"matches": "(a+)+$"}, "headers": {"X-R": {"matches": "(x|xx)+y"}}}, "response": {"text": "regex"}},
  {"name": "stream", "request": {"method": "GET", "path": "/stream"}, "stream": {"template": true, "events": [{"data": "{{request.query.q}}"}, {"data": "{{request.headers.a}}"}]}},
  {"name": "hosted", "request": {"method": "GET", "path": "/hosted", "host": "api.example.com"}, "response": {"text": "hosted"}},
  {"name": "hosted-b", "request": {"method": "GET", "path": "/hosted", "host": "b.example.com"}, "response": {"text": "b"}}
]}
"""#

let servedStubd: (server: StubdServer, network: InMemoryNetwork) = {
    let network = InMemoryNetwork()
    let routes = try! FixtureReader(file: "fuzz.json", loadBodyFile: { path throws(FixtureReader.FixtureProblem) in
        throw FixtureReader.FixtureProblem("no body files: \(path)")
    }).read(Array(serveFixtures.utf8))
    var configuration = StubdServer.Configuration()
    configuration.logger = nil
    configuration.makeEngine = network.factory
    return (try! StubdServer.start(table: try! RouteTable(fixtures: routes), configuration), network)
}()

let serveMethods = ["GET", "POST", "HEAD", "PUT"]
let serveTargets = ["/plain", "/t/substring", "/t/replace", "/t/join", "/t/date", "/t/each", "/t/json", "/graphql", "/json/exact", "/json/partial",
               "/json/path", "/form", "/multipart", "/regex", "/stream", "/hosted", "/elsewhere"]

func fuzzServe(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard bytes.count >= 2 else { return 0 }
    // Byte 0: method and route; then NUL-separated: the query, headers (one per NUL), and the body last.
    let parts = bytes.dropFirst(2).split(separator: 0, maxSplits: 5, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    let target = serveTargets[Int(bytes[1]) % serveTargets.count] + (parts.count > 1 ? "?" + parts[0] : "")
    var headers: [NameValue] = []
    for line in parts.dropFirst().dropLast() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        let value = String(line[line.index(after: colon)...])
        headers.append(NameValue(String(line[..<colon]), value))
        // The one host reading: a name, lower-case in ASCII, without a final dot — or none.
        if let host = HostName.normalized(value) {
            guard !host.isEmpty, !host.utf8.contains(where: { $0 &- UInt8(ascii: "A") < 26 }), host.utf8.last != UInt8(ascii: ".") else {
                fatalError("HostName.normalized(\(value.debugDescription)) = \(host.debugDescription)")
            }
        }
    }
    let body = Array((parts.last ?? "").utf8)
    headers.append(NameValue("Host", "127.0.0.1:8080"))
    if !body.isEmpty { headers.append(NameValue("Content-Length", String(body.count))) }
    let request = IncomingRequest(method: serveMethods[Int(bytes[0]) % serveMethods.count], target: target, headers: headers, body: body)
    guard servedStubd.network.send(request, timeout: 10) != nil else { fatalError("no answer for \(request.method) \(target.debugDescription)") }
    return 0
}
