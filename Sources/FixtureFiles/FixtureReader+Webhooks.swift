import StubModel
import Foundation

extension FixtureReader {
    /// `"webhooks": [{"method", "url", "headers", "json" | "text" | "base64", "delay",
    /// "retries", "retryDelay"}, …]`: each checked now — templates parse, a constant URL is an
    /// http(s) URL, the timing is in range.
    func readWebhooks(_ value: JSONValue?, at field: String) throws(FixtureError) -> [Webhook] {
        guard let value else { return [] }
        guard case .array(let elements) = value, !elements.isEmpty else {
            throw fail(field, "expected a non-empty array of webhooks, e.g. [{\"url\": \"http://127.0.0.1:9000/hook\", \"json\": {…}}]")
        }
        var webhooks: [Webhook] = []
        for (index, element) in elements.enumerated() {
            webhooks.append(try readWebhook(element, at: "\(field)[\(index)]"))
        }
        return webhooks
    }

    private func readWebhook(_ value: JSONValue, at field: String) throws(FixtureError) -> Webhook {
        let members = try object(value, at: field, allowed: ["method", "url", "headers", "json", "text", "base64", "delay", "retries", "retryDelay"])
        let method = (try string(members["method"], at: join(field, "method")) ?? "POST").uppercased()
        guard HTTPSyntax.isToken(method) else { throw fail(join(field, "method"), "\"\(method)\" is not an HTTP method") }
        guard let urlText = try string(members["url"], at: join(field, "url")) else {
            throw fail(join(field, "url"), "missing; give where to send it, e.g. \"http://127.0.0.1:9000/hook\"")
        }
        let url: TemplateText
        switch TemplateText.parse(urlText) {
        case .success(let parsed): url = parsed
        case .failure(let problem): throw fail(join(field, "url"), problem.description)
        }
        if url.isConstant, case .failure(let problem) = WebhookDestination.parse(urlText) {
            throw fail(join(field, "url"), problem.description)
        }
        // Headers and body are read as a response's are (same names, same checks).
        var message: [(key: String, value: JSONValue)] = []
        for key in ["headers", "json", "text", "base64"] { if let part = members[key] { message.append((key, part)) } }
        let parts = try readResponse(.object(message), at: field, defaults: false)
        var webhook = Webhook(method: method, url: url, headers: parts.headers, body: parts.body)
        if case .failure(let problem) = webhook.compile() { throw fail(join(field, problem.field), problem.problem.description) }
        webhook.delay = try seconds(members["delay"], at: join(field, "delay")) ?? 0
        webhook.retryDelay = try seconds(members["retryDelay"], at: join(field, "retryDelay")) ?? 1
        if let retries = members["retries"] {
            guard case .number(let count) = retries, count == count.rounded(), (0...Double(Webhook.maxRetries)).contains(count) else {
                throw fail(join(field, "retries"), "expected an integer from 0 to \(Webhook.maxRetries), found \(retries)")
            }
            webhook.retries = Int(count)
        }
        return webhook
    }

    /// Seconds from 0 to 3600, as a number (0.5) or with a unit ("500ms", "0.5s").
    func seconds(_ value: JSONValue?, at field: String) throws(FixtureError) -> Double? {
        guard let value else { return nil }
        let seconds: Double?
        switch value {
        case .number(let number): seconds = number
        case .string(let text) where text.hasSuffix("ms"): seconds = Double(text.dropLast(2).trimmingCharacters(in: .whitespaces)).map { $0 / 1000 }
        case .string(let text) where text.hasSuffix("s"): seconds = Double(text.dropLast().trimmingCharacters(in: .whitespaces))
        default: seconds = nil
        }
        guard let seconds, seconds >= 0, seconds <= 3600 else {
            throw fail(field, "expected seconds from 0 to 3600 as a number (0.5) or with a unit (\"500ms\", \"0.5s\"), found \(value)")
        }
        return seconds
    }
}
