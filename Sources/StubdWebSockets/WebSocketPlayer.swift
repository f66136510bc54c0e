import Foundation
package import Recording
package import StubModel
package import StubdEngine
import Synchronization
package import StubdTemplates
import StubdState

/// One conversation's script played on its connection (a `WebSocketPeer`): the open steps, the
/// replies to client messages that match, sends pushed by a test; every message both ways kept
/// for the journal (bounded, secrets hidden), which hears of the conversation when it ends.
package final class WebSocketPlayer: WebSocketPeer, OpenWebSocket, @unchecked Sendable {
    private let script: WebSocketScript
    private let compiled: CompiledWebSocket
    /// The upgrade request's context: its templates read the request, route and session.
    private let context: OutcomeContext
    private let registry: WebSocketRegistry
    private let exchange: any ConversationSink
    /// What the journal keeps of it (the dashboard reads it live).
    package let transcript: WebSocketTranscript
    private let registration = Mutex<Int?>(nil)
    private let connection = Mutex<WebSocketConnection?>(nil)
    /// Large messages are matched and answered here, off the loop, with every message after them
    /// until this conversation's queue is idle again — so replies keep their order, and a 1 MiB
    /// message of 60,000 JSON keys does not hold the loop's other clients.
    private lazy var offLoop = DispatchQueue(label: "stubd.websocket-messages")
    /// Messages given to `offLoop` and not yet answered on the loop. (The queue is made on first
    /// use, on the loop: most conversations never need one.)
    private let queued = Mutex(0)
    /// The conversation's open scopes (`WebSocketReply.scope`: a subscription's id), in the order
    /// opened, each with the token it was opened under: a step scheduled in a scope runs only
    /// while that scope is open under the same token, so a `stop` drops what it still had pending
    /// (and a scope opened again later does not revive them).
    private let scopes = Mutex(ScopeBook())

    /// Open scopes (name → the token of their opening), in the order opened.
    private struct ScopeBook {
        var tokens: [String: Int] = [:]
        var order: [String] = []
        var next = 0
        /// Open scopes past which a conversation remembers no new one (a client opening
        /// subscriptions without end must not grow memory); their steps run unscoped.
        static let limit = 1024
    }

    package init(compiled: CompiledWebSocket, context: OutcomeContext, registry: WebSocketRegistry, exchange: any ConversationSink, redactor: Redactor) {
        self.script = compiled.script
        self.compiled = compiled
        self.context = context
        self.registry = registry
        self.exchange = exchange
        self.transcript = WebSocketTranscript(redactor: redactor)
    }

    // MARK: WebSocketPeer (on the loop)

    package func opened(_ connection: WebSocketConnection) {
        self.connection.withLock { $0 = connection }
        let id = registry.add(route: context.route.name, path: context.request.rawPath, session: context.session, conversation: self)
        registration.withLock { $0 = id }
        run(script.onOpen, on: connection, message: nil)
    }

    package func received(_ message: WebSocketMessage, on connection: WebSocketConnection) {
        let offTheLoop = queued.withLock { count -> Bool in
            guard count > 0 || message.byteCount >= OffLoop.bytes else { return false }
            count += 1
            return true
        }
        guard offTheLoop else { return answer(message, on: connection) }
        offLoop.async { [self] in
            answer(message, on: connection)
            // Counted down on the loop, after the sends the answer posted there.
            connection.after(0) { [self] in queued.withLock { $0 -= 1 } }
        }
    }

    /// Notes `message` and runs the first reply that takes it.
    private func answer(_ message: WebSocketMessage, on connection: WebSocketConnection) {
        note(message, from: "client")
        let budget = RegexBudget()
        guard let reply = script.replies.first(where: { Self.takes($0.match, message, budget: budget) }) else { return }
        run(reply.steps, on: connection, message: message, scope: reply.scope.flatMap { Self.scopeName($0, in: message, budget: budget) })
    }

    /// The value at `path` in `message`, as the scope's name (a string as it is, anything else as
    /// compact JSON); nil when the message has none.
    private static func scopeName(_ path: JSONPath, in message: WebSocketMessage, budget: RegexBudget) -> String? {
        guard let document = try? JSONParser.parse(message.bytes), let value = path.select(in: document, regexBudget: budget).first else { return nil }
        if case .string(let text) = value { return text }
        return JSONWriter.write(value, pretty: false)
    }

    /// The scopes open now, oldest first.
    package var openScopes: [String] { scopes.withLock { $0.order } }

    package func ended(code: Int?, reason: String, by: WebSocketEnding) {
        if let id = registration.withLock({ $0 }) { registry.remove(id) }
        connection.withLock { $0 = nil }
        exchange.recordConversation(transcript.document(code: code, reason: reason, by: by))
        exchange.replyFinished(latencySeconds: transcript.elapsed)
    }

    // MARK: Test pushes (any thread)

    package func push(_ message: WebSocketMessage) {
        guard let connection = connection.withLock({ $0 }) else { return }
        note(message, from: "server")
        connection.send(message)
    }

    /// `text` once per open scope, `{{scope}}` in it replaced by the scope's name escaped as inside
    /// a JSON string (where a subscription's id goes): how many were sent.
    package func pushEachScope(_ text: String) -> Int {
        guard let connection = connection.withLock({ $0 }) else { return 0 }
        let names = openScopes
        for name in names {
            let escaped = String(JSONWriter.write(.string(name), pretty: false).dropFirst().dropLast())
            let message = WebSocketMessage.text(text.replacingOccurrences(of: "{{scope}}", with: escaped))
            note(message, from: "server")
            connection.send(message)
        }
        return names.count
    }

    package func close(code: Int, reason: String) {
        connection.withLock { $0 }?.close(code: code, reason: reason)
    }

    // MARK: Steps

    private func run(_ steps: [WebSocketStep], on connection: WebSocketConnection, message: WebSocketMessage?, scope: String? = nil) {
        // A scoped reply opens its scope (unless it ends it) and its steps belong to that opening.
        let token: Int? = scope.flatMap { name in
            scopes.withLock { book -> Int? in
                if book.tokens[name] == nil, !steps.contains(where: { $0.action == .stop }), book.order.count < ScopeBook.limit {
                    book.next += 1
                    book.tokens[name] = book.next
                    book.order.append(name)
                }
                return book.tokens[name]
            }
        }
        var at = 0.0
        for step in steps {
            at += step.delay
            let action = step.action
            let work: @Sendable () -> Void = { [self] in
                if let scope, let token, action != .stop, scopes.withLock({ $0.tokens[scope] != token }) { return }
                if let scope, action == .stop { return stop(scope) }
                perform(action, on: connection, message: message)
            }
            if at > 0 {
                connection.after(at, work)
            } else {
                work()
            }
        }
    }

    /// Ends `scope`: its pending steps find it closed and do nothing.
    private func stop(_ scope: String) {
        scopes.withLock { book in
            guard book.tokens.removeValue(forKey: scope) != nil else { return }
            book.order.removeAll { $0 == scope }
        }
    }

    private func perform(_ action: WebSocketStep.Action, on connection: WebSocketConnection, message: WebSocketMessage?) {
        switch action {
        case .send(let outgoing, let template):
            let sent = template ? render(outgoing, message: message) : outgoing
            note(sent, from: "server")
            connection.send(sent)
        case .close(let code, let reason):
            connection.close(code: code, reason: reason)
        case .fault(let fault):
            connection.fault(fault)
        case .stop:
            break  // handled by `run`, which knows the scope
        }
    }

    /// A text send rendered as a template: the client's message is `request.body`, the upgrade
    /// request's path, query and headers are the request's.
    private func render(_ message: WebSocketMessage, message incoming: WebSocketMessage?) -> WebSocketMessage {
        guard case .text(let text) = message, let template = compiled.template(for: text) else { return message }
        var request = context.request
        request.body = incoming?.bytes ?? []
        let renderer = TemplateRenderer(context.reading(request))
        return .text((try? renderer.render(template)) ?? text)
    }

    /// Whether `match` takes `message`; its regular expressions share one `RegexBudget`, as a
    /// request's do.
    package static func takes(_ match: WebSocketMatch, _ message: WebSocketMessage, budget: RegexBudget) -> Bool {
        let text: String
        switch message {
        case .text(let string): text = string
        case .binary(let bytes): text = String(decoding: bytes, as: UTF8.self)
        }
        switch match {
        case .any: return true
        case .text(let value): return ValueTest(value).accepts([text], budget: budget)
        case .json(let expected):
            guard let got = try? JSONParser.parse(Array(text.utf8)) else { return false }
            return JSONPartialMatch.matches(expected: expected, got: got, options: JSONMatchOptions(ignoreExtraElements: true))
        case .jsonPath(let path, let value):
            guard let document = try? JSONParser.parse(Array(text.utf8)) else { return false }
            let found = path.select(in: document, regexBudget: budget)
            guard let value else { return !found.isEmpty }
            return found.contains { selected in
                if case .string(let string) = selected { return ValueTest(value).accepts([string], budget: budget) }
                return ValueTest(value).accepts([JSONWriter.write(selected, pretty: false)], budget: budget)
            }
        }
    }

    private func note(_ message: WebSocketMessage, from side: String) { transcript.note(message, from: side) }
}
