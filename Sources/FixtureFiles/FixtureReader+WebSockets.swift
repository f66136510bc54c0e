import Foundation
import StubModel

extension FixtureReader {
    /// `"websocket": {"subprotocols", "onOpen", "replies", "messageLimit", "template"}`
    /// (docs/WEBSOCKETS.md): every step, match and template checked now.
    func readWebSocket(_ value: JSONValue, at field: String) throws(FixtureError) -> WebSocketScript {
        let members = try object(value, at: field, allowed: ["subprotocols", "onOpen", "replies", "messageLimit", "template"])
        var script = WebSocketScript()
        if let value = members["template"] {
            guard case .bool(let on) = value else { throw fail(join(field, "template"), "expected true or false") }
            script.template = on
        }
        if let value = members["subprotocols"] {
            guard case .array(let names) = value else { throw fail(join(field, "subprotocols"), "expected an array of names, e.g. [\"chat.v1\"]") }
            for (index, name) in names.enumerated() {
                guard case .string(let text) = name, HTTPSyntax.isToken(text) else {
                    throw fail("\(join(field, "subprotocols"))[\(index)]", "expected a subprotocol name (a token such as \"chat.v1\")")
                }
                script.subprotocols.append(text)
            }
        }
        if let value = members["messageLimit"] {
            guard case .number(let number) = value, number == number.rounded(), number >= 1, number <= Double(64 << 20) else {
                throw fail(join(field, "messageLimit"), "expected bytes from 1 to 67108864 (64 MiB)")
            }
            script.messageLimit = Int(number)
        }
        if let value = members["onOpen"] {
            script.onOpen = try readWebSocketSteps(value, at: join(field, "onOpen"), template: script.template)
            if let index = script.onOpen.firstIndex(where: { $0.action == .stop }) {
                throw fail("\(join(field, "onOpen"))[\(index)].stop", "a stop ends a reply's scope; onOpen has none (use close to end the conversation)")
            }
        }
        if let value = members["replies"] {
            guard case .array(let replies) = value else { throw fail(join(field, "replies"), "expected an array of {\"match\": …, \"then\": [steps]}") }
            for (index, reply) in replies.enumerated() {
                let at = "\(join(field, "replies"))[\(index)]"
                let parts = try object(reply, at: at, allowed: ["match", "then", "scope"])
                guard let then = parts["then"] else { throw fail(join(at, "then"), "missing; give the steps, e.g. [{\"send\": {\"text\": \"pong\"}}]") }
                var scope: JSONPath?
                if let value = parts["scope"] {
                    guard case .string(let text) = value else { throw fail(join(at, "scope"), "expected a JSON path into the message, e.g. \"$.id\"") }
                    switch JSONPath.parse(text) {
                    case .success(let path): scope = path
                    case .failure(let problem): throw fail(join(at, "scope"), "\"\(text)\": \(problem.message)")
                    }
                }
                let steps = try readWebSocketSteps(then, at: join(at, "then"), template: script.template)
                if scope == nil, let index = steps.firstIndex(where: { $0.action == .stop }) {
                    throw fail("\(join(at, "then"))[\(index)].stop", "a stop ends the reply's scope: give the reply a \"scope\", e.g. \"$.id\"")
                }
                script.replies.append(WebSocketReply(match: try readWebSocketMatch(parts["match"], at: join(at, "match")), steps: steps, scope: scope))
            }
        }
        return script
    }

    private func readWebSocketSteps(_ value: JSONValue, at field: String, template: Bool) throws(FixtureError) -> [WebSocketStep] {
        guard case .array(let elements) = value else {
            throw fail(field, "expected an array of steps: {\"send\": {\"text\"|\"json\"|\"base64\": …}}, {\"close\": {\"code\": 1000}}, {\"fault\": \"drop\"}, each with an optional \"delay\"")
        }
        var steps: [WebSocketStep] = []
        for (index, element) in elements.enumerated() {
            let at = "\(field)[\(index)]"
            let parts = try object(element, at: at, allowed: ["send", "close", "fault", "stop", "delay"])
            var delay = 0.0
            if let value = parts["delay"] {
                guard case .number(let seconds) = value, seconds >= 0, seconds <= 600 else { throw fail(join(at, "delay"), "expected seconds from 0 to 600") }
                delay = seconds
            }
            let actions = ["send", "close", "fault", "stop"].filter { parts[$0] != nil }
            guard actions.count == 1 else { throw fail(at, "give one of send, close, fault or stop") }
            switch actions[0] {
            case "stop":
                guard parts["stop"] == .bool(true) else { throw fail(join(at, "stop"), "expected true") }
                steps.append(WebSocketStep(.stop, delay: delay))
            case "send":
                let message = try readWebSocketMessage(parts["send"]!, at: join(at, "send"))
                if template, case .text(let text) = message, case .failure(let problem) = TemplateText.parse(text) {
                    throw fail(join(at, "send"), problem.description)
                }
                steps.append(WebSocketStep(.send(message, template: template), delay: delay))
            case "close":
                let close = try object(parts["close"]!, at: join(at, "close"), allowed: ["code", "reason"])
                guard case .number(let number)? = close["code"], let code = CheckedNumber.exactInt(number),
                      [1000, 1001, 1003, 1007, 1008, 1009, 1010, 1011].contains(code) || (3000...4999).contains(code) else {
                    throw fail(join(at, "close.code"), "expected a close code a server may send: 1000, 1001, 1003, 1007–1011, or 3000–4999")
                }
                let reason = try string(close["reason"], at: join(at, "close.reason")) ?? ""
                guard reason.utf8.count <= 123 else { throw fail(join(at, "close.reason"), "at most 123 bytes (a close frame's payload is 125)") }
                steps.append(WebSocketStep(.close(code: code, reason: reason), delay: delay))
            default:
                let name = try string(parts["fault"], at: join(at, "fault")) ?? ""
                guard let fault = WebSocketFault(rawValue: name) else {
                    throw fail(join(at, "fault"), "unknown fault \"\(name)\"; use one of \(WebSocketFault.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                steps.append(WebSocketStep(.fault(fault), delay: delay))
            }
        }
        return steps
    }

    private func readWebSocketMessage(_ value: JSONValue, at field: String) throws(FixtureError) -> WebSocketMessage {
        let parts = try object(value, at: field, allowed: ["text", "json", "base64"])
        guard parts.count == 1 else { throw fail(field, "give one of text, json or base64") }
        if let text = parts["text"] {
            guard case .string(let string) = text else { throw fail(join(field, "text"), "expected a string") }
            return .text(string)
        }
        if let json = parts["json"] { return .text(JSONWriter.write(json, pretty: false)) }
        guard case .string(let encoded)? = parts["base64"], let data = Data(base64Encoded: encoded) else {
            throw fail(join(field, "base64"), "expected base64 text")
        }
        return .binary([UInt8](data))
    }

    private func readWebSocketMatch(_ value: JSONValue?, at field: String) throws(FixtureError) -> WebSocketMatch {
        guard let value else { return .any }
        if case .string(let text) = value {
            guard text == "any" else { throw fail(field, "expected \"any\" or a matcher object") }
            return .any
        }
        guard case .object(let members) = value else {
            throw fail(field, "expected \"any\", {\"equalTo\"|\"contains\"|\"matches\": …}, {\"json\": {…}} or {\"jsonPath\": \"$.type\", \"equalTo\": …}")
        }
        if let json = members.first(where: { $0.key == "json" }) {
            guard members.count == 1 else { throw fail(field, "json takes no other matcher beside it") }
            return .json(json.value)
        }
        if let path = members.first(where: { $0.key == "jsonPath" }) {
            guard case .string(let text) = path.value else { throw fail(join(field, "jsonPath"), "expected a JSON path, e.g. \"$.type\"") }
            let parsed: JSONPath
            switch JSONPath.parse(text) {
            case .success(let found): parsed = found
            case .failure(let problem): throw fail(join(field, "jsonPath"), "\"\(text)\": \(problem.message)")
            }
            let rest = members.filter { $0.key != "jsonPath" }
            return .jsonPath(parsed, rest.isEmpty ? nil : try readValueMatch(rest, at: field, allowPresent: false))
        }
        return .text(try readValueMatch(members, at: field, allowPresent: false))
    }
}
