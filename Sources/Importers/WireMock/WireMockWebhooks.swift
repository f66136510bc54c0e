import Foundation
import StubModel

/// WireMock's webhook extension (`postServeActions` in 2.x, `serveEventListeners` in 3.x, name
/// `webhook`) as stubd webhooks: method, url, headers, body or base64Body, a fixed or uniform
/// delay. WireMock always renders a webhook's url, headers and body as templates over
/// `originalRequest`; stubd's templates read the same request as `request`.
extension MappingConverter {
    /// The mapping's webhooks; anything else under those fields is reported and left out.
    mutating func convertWebhooks(_ mapping: JSONValue) -> [Webhook] {
        var webhooks: [Webhook] = []
        for field in ["postServeActions", "serveEventListeners"] {
            guard let value = mapping[field] else { continue }
            var actions: [(field: String, name: String?, parameters: JSONValue?, parametersField: String)] = []
            switch value {
            case .array(let list):
                for (index, action) in list.enumerated() {
                    let name = action["name"].flatMap { if case .string(let text) = $0 { text } else { nil } }
                    actions.append(("\(field)[\(index)]", name, action["parameters"], "\(field)[\(index)].parameters"))
                }
            case .object(let members):
                // WireMock 2's early form: {"webhook": {parameters}}.
                for member in members { actions.append(("\(field).\(member.key)", member.key, member.value, "\(field).\(member.key)")) }
            default:
                skip(field, "expected an array of {\"name\": \"webhook\", \"parameters\": {…}}")
            }
            for action in actions {
                guard action.name == "webhook" else {
                    skip(action.field, "the listener \"\(action.name ?? "?")\" (stubd imports WireMock's webhook only)")
                    continue
                }
                guard let parameters = action.parameters, case .object = parameters else {
                    skip(action.field, "a webhook without parameters")
                    continue
                }
                if let webhook = convertWebhook(parameters, at: action.parametersField) { webhooks.append(webhook) }
            }
        }
        return webhooks
    }

    private mutating func convertWebhook(_ parameters: JSONValue, at field: String) -> Webhook? {
        for key in parameters.objectKeys where !["method", "url", "headers", "body", "base64Body", "delay", "extraParameters"].contains(key) {
            skip("\(field).\(key)", "ignored")
        }
        guard case .string(let urlText)? = parameters["url"] else {
            skip(field, "a webhook without a url string; left out")
            return nil
        }
        let url: TemplateText
        switch TemplateText.parse(template(urlText)) {
        case .success(let parsed): url = parsed
        case .failure(let problem):
            skip("\(field).url", "\(problem); this webhook is left out")
            return nil
        }
        var webhook = Webhook(url: url)
        if case .string(let method)? = parameters["method"] { webhook.method = method.uppercased() }
        if case .object(let headers)? = parameters["headers"] {
            for header in headers {
                if Self.framingHeaders.contains(header.key.lowercased()) { continue }
                switch header.value {
                case .string(let text): webhook.headers.append(NameValue(header.key, template(text)))
                case .array(let values):
                    webhook.headers += values.compactMap { if case .string(let text) = $0 { NameValue(header.key, template(text)) } else { nil } }
                default: webhook.headers.append(NameValue(header.key, JSONWriter.write(header.value, pretty: false)))
                }
            }
        }
        if case .string(let text)? = parameters["body"] {
            webhook.body = Array(template(text).utf8)
        } else if case .string(let encoded)? = parameters["base64Body"], let data = Data(base64Encoded: encoded) {
            webhook.body = [UInt8](data)
        }
        switch parameters["delay"] {
        case nil: break
        case let delay?:
            switch delay["type"] {
            case .string("fixed")?:
                if case .number(let ms)? = delay["milliseconds"] { webhook.delay = max(0, ms / 1000) }
            case .string("uniform")?:
                if case .number(let lower)? = delay["lower"], case .number(let upper)? = delay["upper"] {
                    webhook.delay = max(0, (lower + upper) / 2000)
                    skip("\(field).delay", "a uniform delay; stubd waits the middle of the range, \(JSONWriter.format(webhook.delay)) s")
                }
            default:
                skip("\(field).delay", "this delay type; the webhook is sent without a delay")
            }
        }
        if case .failure(let problem) = webhook.compile() {
            skip("\(field).\(problem.field == "text" ? "body" : problem.field)", "\(problem.problem); this webhook is left out")
            return nil
        }
        return webhook
    }

    /// A webhook's template as stubd reads it: WireMock's `originalRequest.` is the request the
    /// route answered (stubd's `request.`), and the suite's declared helpers are put in place.
    private func template(_ text: String) -> String {
        guard TemplateText.mayBeTemplate(text) else { return text }
        let own = text.replacingOccurrences(of: "originalRequest.", with: "request.")
        return helpers.isEmpty ? own : TemplateHelpers.expand(own, helpers)
    }
}
