import StubModel
import StubdEngine
import StubdState

/// A GraphQL batch — Apollo's `BatchHttpLink`, graphql-batch: one `POST` whose JSON body is an
/// array of operations, answered with the array of their answers in order, as GraphQL servers
/// answer batches. Each operation is decided as a request of its own (its route, sequence and
/// scenario steps, template, hit count), none journaled apart: the batch is one exchange, resolved
/// as its first operation's route, or as a miss naming the operations no route answered (each such
/// operation's answer is a GraphQL error carrying the near miss); webhooks of batched operations
/// are not sent. A fault of an operation's route faults the whole batch — the HTTP request is what
/// fails — and the longest delay of its operations delays it. A stream cannot be an array's
/// member: such an operation's answer is an error saying so.
struct GraphQLBatch {
    /// Operations one batch may hold (Apollo's BatchHttpLink sends at most 10 by default).
    static let maxOperations = 32

    /// The operations (empty when there are more than `maxOperations`).
    let operations: [JSONValue]
    /// How many the array holds.
    let count: Int

    /// Whether `request` may be a batch, from its method and its body's first byte: such requests
    /// are decided off the loop (a batch runs a lookup per operation).
    @inline(__always)
    static func mayBe(_ request: IncomingRequest) -> Bool {
        request.method == "POST" && request.body.first { !Self.space.contains($0) } == UInt8(ascii: "[")
    }

    private static let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]

    /// A batch when `request` is one: a `POST` whose body is a JSON array of GraphQL requests —
    /// each a `query` that reads as a GraphQL document, or a persisted query's hash; nil otherwise
    /// (a REST API's array of objects with a `query` field is not one). Asked only when no route
    /// takes the request whole, so a route written for the array body answers it. An array longer
    /// than `maxOperations` is judged by its first `maxOperations + 1` items (each read costs a
    /// document parse) and, if they are GraphQL requests, is a batch too large (400).
    init?(_ request: IncomingRequest) {
        guard Self.mayBe(request), case .array(let items)? = try? JSONParser.parse(request.body), !items.isEmpty,
              items.prefix(Self.maxOperations + 1).allSatisfy({ item in
                  guard case .object = item, let read = GraphQLRequest.read(method: "POST", query: [], body: item) else { return false }
                  return read.documentProblem == nil || read.persistedQueryHash != nil
              }) else { return nil }
        count = items.count
        operations = items.count <= Self.maxOperations ? items : []
    }

    /// The pipeline's batch stage: a miss whose body is a batch (no route took the array whole) is
    /// answered an operation at a time, each looked up as a request of its own.
    @inline(__always)
    static func answerMiss(_ exchange: Exchange, _ decision: inout Decision, lookup: LookupStage) {
        guard case .miss = exchange.resolution, let batch = GraphQLBatch(exchange.request) else { return }
        decision = batch.decide(exchange) { lookup.decide($0, headOnly: false) }
    }

    /// The batch's answer: each operation decided by `one` (the stub lookup) as a request alone.
    func decide(_ exchange: Exchange, one: (Exchange) -> Decision) -> Decision {
        guard count <= Self.maxOperations else {
            exchange.resolve(.miss(closest: "a GraphQL batch of \(count) operations"))
            return .reply(ReplyPlan(content: .response(JSONReply.error("a GraphQL batch of \(count) operations; stubd answers at most \(Self.maxOperations)",
                                                                         status: 400, problems: ["send fewer operations per request (BatchHttpLink's batchMax)"]))))
        }
        var answers: [JSONValue] = []
        var delay = 0.0
        var first: Route?
        var missed: [String] = []
        for (index, operation) in operations.enumerated() {
            var request = exchange.request
            request.body = Array(JSONWriter.write(operation, pretty: false).utf8)
            request.headers = request.headers.filter { !$0.name.equalsIgnoringCase("Content-Length") } + [NameValue("Content-Length", String(request.body.count))]
            let single = Exchange(request: request, feed: nil, reply: nil)
            let plan: ReplyPlan
            switch one(single) {
            case .forward(let target): return .forward(target)  // a miss while forwarding: the upstream answers the whole batch
            case .later: return .reply(ReplyPlan(content: .response(JSONReply.error("a GraphQL batch cannot hold an admin call", status: 400))))
            case .reply(let decided): plan = decided
            }
            delay = max(delay, plan.delay ?? 0)
            let name = Self.name(of: operation) ?? "operation \(index + 1)"
            switch (single.resolution, plan.content) {
            case (.route(let route), .response(let reply)):
                if first == nil { first = route }
                answers.append((try? JSONParser.parse(reply.body))
                               ?? Self.error("stubd: route \(route.name) answers \(name) with a body that is not JSON, which a batch's array cannot hold"))
            case (.route, .fault):
                // The HTTP request fails: the batch gets the fault, as its only request would.
                exchange.resolve(single.resolution)
                var faulted = plan
                faulted.delay = delay > 0 ? delay : nil
                return .reply(faulted)
            case (.route(let route), _):
                if first == nil { first = route }
                answers.append(Self.error("stubd: route \(route.name) answers \(name) with a stream or WebSocket, which a batch's array cannot hold"))
            case (_, .response(let reply)):
                missed.append(name)
                var error: [(key: String, value: JSONValue)] = [("message", .string("stubd: no route answers \(name)"))]
                if let report = try? JSONParser.parse(reply.body) { error.append(("extensions", .object([("stubd", report)]))) }
                answers.append(.object([("errors", .array([.object(error)]))]))
            default:
                missed.append(name)
                answers.append(Self.error("stubd: no route answers \(name)"))
            }
        }
        if let first, missed.isEmpty {
            // Resolved for the journal and counts, not "answered by the route": its webhooks are not sent.
            exchange.resolve(.route(first))
        } else {
            exchange.resolve(.miss(closest: "GraphQL batch: no route answers \(missed.joined(separator: ", "))"))
        }
        let body = Array(JSONWriter.write(.array(answers), pretty: false).utf8)
        return .reply(ReplyPlan(content: .response(PreparedReply(status: 200, headers: [NameValue("Content-Type", "application/json")], body: body)),
                                delay: delay > 0 ? delay : nil))
    }

    /// The operation's name: `operationName`, else its document's only operation's.
    private static func name(of operation: JSONValue) -> String? {
        GraphQLRequest.read(method: "POST", query: [], body: operation)?.operationName
    }

    private static func error(_ message: String) -> JSONValue {
        .object([("errors", .array([.object([("message", .string(message))])]))])
    }
}
