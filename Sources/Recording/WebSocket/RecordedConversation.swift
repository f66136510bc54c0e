import StubModel
import Foundation

/// A relayed conversation as a scripted `"websocket"` route replays it: the upstream's messages
/// before the client's first as `onOpen`; after each client message, the upstream's messages up
/// to the next one as that message's reply, with the pauses seen (to the millisecond); the
/// upstream's close frame as a close step. Secrets are redacted as in bodies: secret-named JSON
/// members in every message, and their values (and the upgrade request's) wherever they recur;
/// a client message's secret members are left out of its match, so a replay with another token
/// still matches.
struct RecordedConversation {
    /// The script.
    let script: WebSocketScript
    /// Names whose values were replaced.
    let redactedNames: Set<String>
    /// Client messages sent again with another answer (the first answer is kept).
    let repeatsWithOtherAnswers: Int

    init(_ conversation: CapturedConversation, redactor: Redactor, secrets requestSecrets: SecretValues) {
        var secrets = requestSecrets
        var redacted = Set<String>()
        // Secret values first, from every message, so a token the client sends late is scrubbed
        // from the upstream's earlier echo of it too.
        if redactor.enabled {
            for item in conversation.messages {
                if case .text(let text) = item.message, let json = try? JSONParser.parse(Array(text.utf8)), json.isContainer {
                    secrets.addJSON(json, redactor: redactor)
                }
            }
        }
        func hide(_ message: WebSocketMessage) -> WebSocketMessage {
            guard redactor.enabled, case .text(let text) = message else { return message }
            if let json = try? JSONParser.parse(Array(text.utf8)), json.isContainer {
                let names = SecretNames.inJSON(json, redactor: redactor)
                redacted.formUnion(names)
                // Written compact as stubd writes JSON; an untouched document stays as it was sent.
                let hidden = secrets.scrub(redactor.json(json))
                return hidden == json ? message : .text(JSONWriter.write(hidden, pretty: false))
            }
            return .text(secrets.scrub(text))
        }
        func match(_ message: WebSocketMessage) -> WebSocketMatch {
            let text: String
            switch message {
            case .text(let value): text = value
            case .binary(let bytes): text = String(decoding: bytes, as: UTF8.self)
            }
            if redactor.enabled, let json = try? JSONParser.parse(Array(text.utf8)), case .object = json {
                return .json(Self.withoutSecrets(secrets.scrub(json), redactor: redactor))
            }
            guard redactor.enabled, secrets.occurs(in: text) else { return .text(.equalTo(text, caseInsensitive: false)) }
            // The rest of the text exactly, any value where a secret was.
            let pieces = secrets.scrub(text).components(separatedBy: Redactor.placeholder).map(Self.regexLiteral)
            return .text(.matches("^" + pieces.joined(separator: ".+") + "$"))
        }

        var onOpen: [WebSocketStep] = []
        var replies: [WebSocketReply] = []
        var repeats = 0
        // The steps being gathered: onOpen's until the first client message, then a reply's.
        var current: (match: WebSocketMatch?, steps: [WebSocketStep], last: Double) = (nil, [], 0)
        func flush() {
            guard let match = current.match else {
                onOpen = current.steps
                return
            }
            if let earlier = replies.first(where: { $0.match == match }) {
                if earlier.steps != current.steps { repeats += 1 }
                return
            }
            replies.append(WebSocketReply(match: match, steps: current.steps))
        }
        func pause(until at: Double) -> Double { max(0, ((at - current.last) * 1000).rounded() / 1000) }
        var closed = false
        for item in conversation.messages {
            if let close = conversation.upstreamClose, !closed, close.at <= item.at {
                current.steps.append(WebSocketStep(.close(code: close.code, reason: close.reason), delay: pause(until: close.at)))
                closed = true
            }
            if item.fromClient {
                flush()
                current = (match(item.message), [], item.at)
            } else {
                current.steps.append(WebSocketStep(.send(hide(item.message), template: false), delay: pause(until: item.at)))
                current.last = item.at
            }
        }
        if let close = conversation.upstreamClose, !closed {
            current.steps.append(WebSocketStep(.close(code: close.code, reason: close.reason), delay: pause(until: close.at)))
        }
        flush()
        var script = WebSocketScript(subprotocols: conversation.subprotocol.map { [$0] } ?? [], onOpen: onOpen, replies: replies)
        // A recording holds the largest message seen at least.
        let largest = conversation.messages.filter(\.fromClient).map(\.message.bytes.count).max() ?? 0
        if largest > script.messageLimit { script.messageLimit = largest }
        self.script = script
        self.redactedNames = redacted
        self.repeatsWithOtherAnswers = repeats
    }

    /// `value` with every secret-named member left out (a partial match then takes any value).
    static func withoutSecrets(_ value: JSONValue, redactor: Redactor) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(members.filter { !redactor.isSecret($0.key) }.map { ($0.key, withoutSecrets($0.value, redactor: redactor)) })
        case .array(let items):
            return .array(items.map { withoutSecrets($0, redactor: redactor) })
        default:
            return value
        }
    }

    /// `text` matched literally by a regular expression.
    static func regexLiteral(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
