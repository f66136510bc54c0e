package import StubModel
package import StubdEngine

/// JSON replies stubd makes itself: the admin API's answers and every error it sends
/// (`{"error", "problems"}`: what went wrong and, per item, what to fix).
package enum JSONReply {
    package static func json(_ value: JSONValue, status: Int = 200) -> PreparedReply {
        PreparedReply(status: status, headers: [NameValue("Content-Type", "application/json")],
                      body: Array((JSONWriter.write(value, pretty: true) + "\n").utf8))
    }

    /// `{"error": message, "problems": […]}`: what went wrong and, per item, what to fix.
    package static func error(_ message: String, status: Int, problems: [String] = []) -> PreparedReply {
        var members: [(key: String, value: JSONValue)] = [("error", .string(message))]
        if !problems.isEmpty { members.append(("problems", .array(problems.map { .string($0) }))) }
        return json(.object(members), status: status)
    }

    package static func number(_ value: Int) -> JSONValue { .number(Double(value)) }
}
