import Foundation

/// A WebSocket script as fixture JSON (what `FixtureReader` reads back equal): the writer's half.
public enum WebSocketFixtureJSON {
    /// `{"subprotocols", "onOpen", "replies", "messageLimit", "template"}`, defaults left out.
    public static func websocket(_ script: WebSocketScript) -> JSONValue {
        var fields: [(key: String, value: JSONValue)] = []
        if !script.subprotocols.isEmpty { fields.append(("subprotocols", .array(script.subprotocols.map { .string($0) }))) }
        if !script.onOpen.isEmpty { fields.append(("onOpen", .array(script.onOpen.map(step)))) }
        if !script.replies.isEmpty {
            fields.append(("replies", .array(script.replies.map { reply in
                .object([("match", match(reply.match))] + (reply.scope.map { [("scope", .string($0.text))] } ?? [])
                        + [("then", .array(reply.steps.map(step)))])
            })))
        }
        if script.messageLimit != WebSocketScript.defaultMessageLimit { fields.append(("messageLimit", .number(Double(script.messageLimit)))) }
        if script.template { fields.append(("template", .bool(true))) }
        return .object(fields)
    }

    static func step(_ step: WebSocketStep) -> JSONValue {
        var fields: [(key: String, value: JSONValue)] = []
        switch step.action {
        case .send(let message, _): fields.append(("send", self.message(message)))
        case .close(let code, let reason):
            fields.append(("close", .object([("code", .number(Double(code)))] + (reason.isEmpty ? [] : [("reason", .string(reason))]))))
        case .fault(let fault): fields.append(("fault", .string(fault.rawValue)))
        case .stop: fields.append(("stop", .bool(true)))
        }
        if step.delay > 0 { fields.append(("delay", .number(step.delay))) }
        return .object(fields)
    }

    static func message(_ message: WebSocketMessage) -> JSONValue {
        switch message {
        case .text(let text):
            // As `json` only when it reads back byte for byte (stubd sends JSON compact); any other
            // layout (a recorded server's `{"a": 1}`) stays the text it was.
            if let json = try? JSONParser.parse(Array(text.utf8)), json.isObjectOrArray, JSONWriter.write(json, pretty: false) == text {
                return .object([("json", json)])
            }
            return .object([("text", .string(text))])
        case .binary(let bytes): return .object([("base64", .string(Data(bytes).base64EncodedString()))])
        }
    }

    static func match(_ match: WebSocketMatch) -> JSONValue {
        switch match {
        case .any: return .string("any")
        case .text(let value): return FixtureWriter.match(value)
        case .json(let value): return .object([("json", value)])
        case .jsonPath(let path, let value):
            guard let value, case .object(let members) = FixtureWriter.match(value) else { return .object([("jsonPath", .string(path.text))]) }
            return .object([("jsonPath", .string(path.text))] + members)
        }
    }
}

extension JSONValue {
    var isObjectOrArray: Bool {
        switch self {
        case .object, .array: return true
        default: return false
        }
    }
}
