/// A route's WebSocket (`"websocket"` in a fixture): the upgrade is accepted on the route's
/// request (path, query, headers, session — the usual matchers), then the conversation follows
/// this script — messages sent on open, replies to client messages that match, a close — and a
/// test can push more at any moment (`POST /__stubd/websockets/send`, the kit's
/// `session.send(toWebSocket:)`).
public struct WebSocketScript: Sendable, Equatable {
    /// Subprotocols the route speaks, in preference order; the first the client offers is chosen
    /// (none offered, or none of these: no `Sec-WebSocket-Protocol` in the answer).
    public var subprotocols: [String]
    /// Steps run when the connection opens.
    public var onOpen: [WebSocketStep]
    /// Answers to client messages: the first whose match takes a message runs its steps.
    public var replies: [WebSocketReply]
    /// Bytes one client message may take (reassembled fragments included); larger ones close the
    /// connection with 1009.
    public var messageLimit: Int
    /// Whether text sends are templates (`"template": true`).
    public var template = false

    /// The default message limit: 1 MiB.
    public static let defaultMessageLimit = 1 << 20

    /// A script.
    public init(subprotocols: [String] = [], onOpen: [WebSocketStep] = [], replies: [WebSocketReply] = [], messageLimit: Int = WebSocketScript.defaultMessageLimit) {
        self.subprotocols = subprotocols
        self.onOpen = onOpen
        self.replies = replies
        self.messageLimit = messageLimit
    }
}

/// One thing a script does, after `delay` seconds (from the step before it).
public struct WebSocketStep: Sendable, Equatable {
    /// What a step does: send a message, close, or fail on the wire.
    public enum Action: Sendable, Equatable {
        /// Send a message; a text one may be a template (it reads the client's message as
        /// `request.body` and the upgrade request's path, query and headers).
        case send(WebSocketMessage, template: Bool)
        /// Close cleanly with a code (1000 normal, 1001 going away, 4000–4999 the app's) and reason.
        case close(code: Int, reason: String)
        /// Fail as a network would (see `WebSocketFault`).
        case fault(WebSocketFault)
        /// End the reply's scope (`WebSocketReply.scope`): the steps its earlier replies still
        /// have pending are dropped, and a test's per-scope pushes no longer reach it — a
        /// subscription the client completed stops receiving.
        case stop
    }

    /// What it does.
    public var action: Action
    /// Seconds to wait first.
    public var delay: Double

    /// A step.
    public init(_ action: Action, delay: Double = 0) {
        self.action = action
        self.delay = delay
    }
}


/// An answer to client messages the match takes.
public struct WebSocketReply: Sendable, Equatable {
    /// Which messages.
    public var match: WebSocketMatch
    /// What happens then.
    public var steps: [WebSocketStep]
    /// Where in the message the name of the conversation's part its steps belong to is — a
    /// GraphQL subscription's `$.id`: the steps run while that scope is open, and a reply with the
    /// same scope and a `stop` step ends it. Nil: the steps belong to the whole conversation.
    public var scope: JSONPath?

    /// A reply.
    public init(match: WebSocketMatch, steps: [WebSocketStep], scope: JSONPath? = nil) {
        self.match = match
        self.steps = steps
        self.scope = scope
    }
}

/// Which client messages a reply takes — the existing value matchers, on the message's text.
public enum WebSocketMatch: Sendable, Equatable {
    /// Any message.
    case any
    /// The text equal to, containing or matching (`ValueMatch`).
    case text(ValueMatch)
    /// The message is JSON containing this (objects partially, as request bodies' `json` with
    /// `ignoreExtraElements`).
    case json(JSONValue)
    /// The message is JSON and the path selects something (whose text satisfies the match).
    case jsonPath(JSONPath, ValueMatch?)

    /// How it reads in a report.
    public var description: String {
        switch self {
        case .any: return "any message"
        case .text(let match): return "text \(match.description)"
        case .json(let value): return "JSON like \(JSONWriter.write(value, pretty: false))"
        case .jsonPath(let path, let match): return "JSON with \(path.text)" + (match.map { " \($0.description)" } ?? "")
        }
    }
}
