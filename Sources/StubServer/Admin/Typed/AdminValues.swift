import StubModel
import StubdEngine

/// A JSON body an admin endpoint takes, read before its handler runs: the handler is given a
/// value whose fields are checked, and a body that does not read is a 400 naming the field and
/// the fix. The table says which endpoint takes which body (`AdminEndpoint(_:_:body:)`).
protocol AdminRequestBody: Sendable {
    /// Reads the parsed body; throws a refusal naming the field that does not read.
    init(json: JSONValue) throws(AdminRefusal)
    /// The 400's message for a body that is not JSON at all: what a body looks like.
    static var notJSON: AdminRefusal { get }
}

/// What an admin handler answers with: a value the router writes as the JSON the README shows.
protocol AdminResponseBody: Sendable {
    /// The body as JSON.
    var json: JSONValue { get }
    /// The status (200 unless the value says otherwise, as a created file's 201).
    var status: Int { get }
}

extension AdminResponseBody {
    var status: Int { 200 }
}

/// Why an admin call was refused: the status, what went wrong and, per item, what to fix (the
/// admin API's `{"error", "problems"}` body).
struct AdminRefusal: Error, Sendable {
    let status: Int
    let message: String
    let problems: [String]

    init(_ message: String, status: Int = 400, problems: [String] = []) {
        self.status = status
        self.message = message
        self.problems = problems
    }

    /// A store bound that refused the change: 507, as for a request.
    init(_ refusal: StateBudget.Refusal) {
        self.init(refusal.description, status: 507)
    }

    /// As the admin API sends it.
    var reply: PreparedReply { AdminReply.error(message, status: status, problems: problems) }
}

extension AdminEndpoint {
    /// An endpoint taking a typed body and answering with a typed value, at once: the router
    /// reads the body (a 400 when it does not), the handler works with values, and the answer
    /// is written as JSON.
    init<Body: AdminRequestBody, Response: AdminResponseBody>(
        _ method: String, _ path: String, body: Body.Type,
        _ handle: @escaping @Sendable (Call, Body) throws(AdminRefusal) -> Response
    ) {
        self.init(method, path) { call in
            do throws(AdminRefusal) {
                let response = try handle(call, try Body.read(call.request.body))
                return AdminReply.json(response.json, status: response.status)
            } catch {
                return error.reply
            }
        }
    }
}

extension AdminRequestBody {
    /// Parses `bytes` as JSON and reads the value.
    static func read(_ bytes: [UInt8]) throws(AdminRefusal) -> Self {
        guard let json = try? JSONParser.parse(bytes) else { throw notJSON }
        return try Self(json: json)
    }
}
