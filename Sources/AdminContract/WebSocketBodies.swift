import Foundation
public import StubModel

/// `POST /__stubd/websockets/send`: a message for the session's open conversations (on `path`
/// only, when given; a path ending in `*` is a prefix).
public struct WebSocketPush: AdminBody {
    /// The upgrade path the conversations were opened on; nil: all of the session's.
    public let path: String?
    /// What to send.
    public let message: WebSocketMessage
    /// Send a text message once per open scope of each conversation (a GraphQL subscription's
    /// id, `WebSocketReply.scope`), `{{scope}}` in it replaced by the scope's name — a push
    /// addressed to subscriptions whose ids the client drew.
    public let eachScope: Bool

    /// A push.
    public init(path: String? = nil, message: WebSocketMessage, eachScope: Bool = false) {
        self.path = path
        self.message = message
        self.eachScope = eachScope
    }

    static let usage = #"expected {"path"?: "/chat", "text": "…"} (or "json": {…}, or "base64": "…"; "eachScope"?: true)"#

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: Self.usage)
        path = try fields.optionalString("path")
        eachScope = try fields.bool("eachScope", absent: false)
        if let text = try fields.optionalString("text") {
            message = .text(text)
        } else if let value = fields.raw("json") {
            message = .text(JSONWriter.write(value, pretty: false))
        } else if let encoded = try fields.optionalString("base64") {
            guard let data = Data(base64Encoded: encoded) else { throw AdminBodyProblem("base64: not base64 text") }
            message = .binary([UInt8](data))
        } else {
            throw AdminBodyProblem(Self.usage)
        }
        if eachScope, case .binary = message { throw AdminBodyProblem("eachScope: a binary message has no {{scope}} to fill; send text or json") }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = path.map { [("path", .string($0))] } ?? []
        switch message {
        case .text(let text): members.append(("text", .string(text)))
        case .binary(let bytes): members.append(("base64", .string(Data(bytes).base64EncodedString())))
        }
        if eachScope { members.append(("eachScope", .bool(true))) }
        return .object(members)
    }
}

/// `POST /__stubd/websockets/close`: close the session's open conversations (on `path`).
public struct WebSocketCloseRequest: AdminBody {
    /// Only conversations opened on this path (nil: all of the session's).
    public let path: String?
    /// 1000 by default.
    public let code: Int
    /// The close frame's reason text.
    public let reason: String

    /// A close.
    public init(path: String? = nil, code: Int = 1000, reason: String = "") {
        self.path = path
        self.code = code
        self.reason = reason
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: #"expected {"path"?: "/chat", "code"?: 1000, "reason"?: "…"}"#)
        path = try fields.optionalString("path")
        code = try fields.optionalInt("code") ?? 1000
        reason = try fields.optionalString("reason") ?? ""
        guard code == 1000 || code == 1001 || (3000...4999).contains(code) else {
            throw AdminBodyProblem("code: \(code) is not one a server may send in a test; use 1000, 1001 or 3000–4999")
        }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        .object((path.map { [("path", .string($0))] } ?? []) + [("code", .number(Double(code)))] + (reason.isEmpty ? [] : [("reason", .string(reason))]))
    }
}

/// `POST /__stubd/websockets/send` and `/close`: how many conversations it reached.
public struct WebSocketReach: AdminBody {
    /// How many conversations it reached.
    public let count: Int

    /// A count.
    public init(count: Int) { self.count = count }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        count = try JSONFields(json, usage: "expected {\"count\": n}").int("count")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("count", .number(Double(count)))]) }
}

/// `GET /__stubd/websockets`: the session's open conversations.
public struct WebSocketList: AdminBody {
    /// One open conversation.
    public struct Entry: Sendable, Equatable {
        /// The conversation's number, unique per server.
        public let id: Int
        /// The route playing it, or `proxied to …` for a relayed one.
        public let route: String
        /// The path it was opened on.
        public let path: String
        /// When it opened (ISO 8601, UTC).
        public let opened: String
        /// Its open scopes (a GraphQL subscription's id), oldest first.
        public let scopes: [String]

        /// An entry.
        public init(id: Int, route: String, path: String, opened: String, scopes: [String] = []) {
            self.id = id
            self.route = route
            self.path = path
            self.opened = opened
            self.scopes = scopes
        }
    }

    /// The open conversations, oldest first.
    public let open: [Entry]

    /// A list.
    public init(open: [Entry]) { self.open = open }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        guard case .array(let items)? = json["open"] else { throw AdminBodyProblem("expected {\"open\": [{\"id\", \"route\", \"path\", \"opened\"}]}") }
        var entries: [Entry] = []
        for item in items {
            let fields = try JSONFields(item, usage: "open[]: expected an object")
            var scopes: [String] = []
            if case .array(let names)? = item["scopes"] { scopes = names.compactMap { if case .string(let name) = $0 { name } else { nil } } }
            entries.append(Entry(id: try fields.int("id"), route: try fields.string("route"), path: try fields.string("path"), opened: try fields.string("opened"),
                                 scopes: scopes))
        }
        open = entries
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        .object([("open", .array(open.map {
            .object([("id", .number(Double($0.id))), ("route", .string($0.route)), ("path", .string($0.path)), ("opened", .string($0.opened)),
                     ("scopes", .array($0.scopes.map { .string($0) }))])
        }))])
    }
}
