// The JSON Schema of every admin body (`AdminBody.schema`), in the order AdminContract lists the
// calls. `Tests/admin/spec_test.py` checks real answers of a running stubd against them.

extension NoBody {
    /// Nothing is read (a call without a body).
    public static var schema: AdminSchema { .object("no body is read", [:]) }
}

extension JSONBody {
    /// A document with a format of its own, checked by its reader.
    public static var schema: AdminSchema {
        .anything("a document in the format docs/FIXTURES.md describes (one route object, or a fixture file's {\"routes\": [...]})")
    }
}

extension Health {
    /// `GET /__stubd/health`.
    public static var schema: AdminSchema {
        .object("route and journal counts", [
            "status": .constant("ok"),
            "fixtureRoutes": .integer("routes from fixture files or targets"),
            "runtimeRoutes": .integer("runtime routes of every session"),
            "journal": .object("", ["size": .integer("entries held"), "capacity": .integer("entries kept at most (--journal-size)")]),
            "recording": .object("a recording under way", ["upstream": .string("the real API"), "out": .string("the folder written to"),
                                                            "files": .array(.string(""), "files written so far")]),
        ], optional: ["recording"])
    }
}

extension Readiness {
    /// `GET /__stubd/ready`.
    public static var schema: AdminSchema { .object("the server serves", ["status": .constant("ready")]) }
}

extension ResetDone {
    /// `POST /__stubd/reset`, `POST /__stubd/scenarios/reset`.
    public static var schema: AdminSchema {
        .object("", ["reset": .boolean("always true"), "removedRoutes": .integer("runtime routes removed (a whole reset only)")],
                optional: ["removedRoutes"])
    }
}

extension RouteList {
    /// `GET /__stubd/routes`.
    public static var schema: AdminSchema { .object("", ["routes": .array(.of(RouteEntry.self), "in lookup order")]) }
}

extension AddedRoutes {
    /// `POST /__stubd/routes`.
    public static var schema: AdminSchema { .object("", ["added": .array(.string(""), "the new routes' ids, in the order sent")]) }
}

extension ReplacedRoute {
    /// `PUT /__stubd/routes/{id}`.
    public static var schema: AdminSchema { .object("", ["replaced": .string("the route's id")]) }
}

extension RemovedRoute {
    /// `DELETE /__stubd/routes/{id}`.
    public static var schema: AdminSchema { .object("", ["removed": .string("the route's id")]) }
}

extension SwitchedRoute {
    /// `POST /__stubd/routes/{id}/disable` and `…/enable`.
    public static var schema: AdminSchema { .object("", ["id": .string("the route's id"), "disabled": .boolean("whether it is off now")]) }
}

extension RemovedCount {
    /// `DELETE /__stubd/routes`.
    public static var schema: AdminSchema { .object("", ["removed": .integer("runtime routes removed")]) }
}

extension RequestList {
    /// `GET /__stubd/requests`.
    public static var schema: AdminSchema {
        .object("", ["count": .integer("entries listed"), "requests": .array(.of(RequestRecord.self), "oldest first")])
    }
}

extension RequestCount {
    /// `GET /__stubd/requests/count`.
    public static var schema: AdminSchema { .object("", ["count": .integer("journal entries that match")]) }
}

extension RequestSnapshotText {
    /// `GET /__stubd/requests/snapshot`.
    public static var schema: AdminSchema { .object("", ["snapshot": .string("the requests as canonical text, one block each")]) }
}

extension Cleared {
    /// `DELETE /__stubd/requests`, `DELETE /__stubd/webhooks`.
    public static var schema: AdminSchema { .object("", ["cleared": .boolean("always true")]) }
}

extension SequencePosition {
    /// One sequence of `GET /__stubd/scenarios`.
    public static var schema: AdminSchema {
        .object("where a sequence stands", [
            "route": .string("the route's id"), "name": .string("its name"), "served": .integer("answers served"),
            "steps": .integer("answers it has"), "next": .string("what the next request gets (200, fault:reset)"),
        ])
    }
}

extension ScenarioStates {
    /// `GET /__stubd/scenarios`.
    public static var schema: AdminSchema {
        .object("", ["scenarios": .map(.string(""), "each scenario's state"), "sequences": .array(.of(SequencePosition.self), "")])
    }
}

extension ScenarioChange {
    /// `PUT /__stubd/scenarios/{name}`'s body.
    public static var schema: AdminSchema { .object("", ["state": .string("the scenario's new state")]) }
}

extension ScenarioSet {
    /// `PUT /__stubd/scenarios/{name}`'s answer.
    public static var schema: AdminSchema { .map(.string(""), "the scenario's name and its new state") }
}

extension ClockSetting {
    /// `PUT /__stubd/clock`'s body.
    public static var schema: AdminSchema { .object("", ["now": .string("ISO 8601 with a zone: 2026-01-01T09:00:00Z")]) }
}

extension ClockReading {
    /// `PUT` and `DELETE /__stubd/clock`.
    public static var schema: AdminSchema { .object("", ["now": .string("the time {{now}} gives (ISO 8601), or \"real\"")]) }
}

extension SeedSetting {
    /// `PUT /__stubd/random`'s body.
    public static var schema: AdminSchema { .object("", ["seed": .nullable(.integer("the seed; null: unpredictable again"))]) }
}

extension SeedReading {
    /// `PUT /__stubd/random`'s answer.
    public static var schema: AdminSchema { SeedSetting.schema }
}

extension CollectionSummary {
    /// One collection of `GET /__stubd/collections`.
    public static var schema: AdminSchema {
        .object("", ["name": .string(""), "path": .string("where it is served"), "count": .integer("items it holds")])
    }
}

extension CollectionList {
    /// `GET /__stubd/collections`.
    public static var schema: AdminSchema { .object("", ["collections": .array(.of(CollectionSummary.self), "")]) }
}

extension CollectionContents {
    /// `GET /__stubd/collections/{name}`.
    public static var schema: AdminSchema {
        .object("", ["name": .string(""), "items": .array(.anything("an item (an object)"), "")])
    }
}

extension CollectionItems {
    /// `PUT /__stubd/collections/{name}`'s body.
    public static var schema: AdminSchema { .array(.anything("an item (an object)"), "the collection's new items") }
}

extension CollectionCount {
    /// `PUT /__stubd/collections/{name}`'s answer.
    public static var schema: AdminSchema { .object("", ["name": .string(""), "count": .integer("items it holds now")]) }
}

extension WebhookList {
    /// `GET /__stubd/webhooks`.
    public static var schema: AdminSchema { .object("", ["webhooks": .array(.of(WebhookRecord.self), "oldest first")]) }
}

extension RecordingStart {
    /// `POST /__stubd/recording/start`'s body.
    public static var schema: AdminSchema {
        .object("", [
            "upstream": .string("the real API: https://api.example.com"),
            "out": .string("the folder written to (default: the server's)"),
            "sequences": .boolean("record a request answered differently as a sequence"),
            "keep": .array(.string(""), "header names kept in the fixtures"),
            "overwrite": .boolean("replace hand-written files of the same name"),
        ], optional: ["out", "sequences", "keep", "overwrite"])
    }
}

extension RecordingStarted {
    /// `POST /__stubd/recording/start`'s answer.
    public static var schema: AdminSchema {
        .object("", ["recording": .boolean("always true"), "upstream": .string(""), "out": .string("the folder written to"),
                     "warnings": .array(.string(""), "what to check before relying on the recording")])
    }
}

extension FixtureWrite {
    /// `POST /__stubd/ui/fixtures`'s body.
    public static var schema: AdminSchema {
        .object("", ["file": .string("a plain file name ending in .json"), "document": .anything("the fixture file's content"),
                     "overwrite": .boolean("replace a file of that name")], optional: ["overwrite"])
    }
}

extension FixtureWritten {
    /// `POST /__stubd/ui/fixtures`'s answer.
    public static var schema: AdminSchema { .object("", ["written": .string("the file's path")]) }
}

extension WebSocketPush {
    /// `POST /__stubd/websockets/send`'s body.
    public static var schema: AdminSchema {
        .object("one of text, json or base64", [
            "path": .string("only conversations opened on this path (a trailing * is a prefix)"),
            "text": .string("a text message"), "json": .anything("a text message written as JSON"),
            "base64": .string("a binary message"),
            "eachScope": .boolean("send once per open scope, {{scope}} replaced by its name"),
        ], optional: ["path", "text", "json", "base64", "eachScope"])
    }
}

extension WebSocketCloseRequest {
    /// `POST /__stubd/websockets/close`'s body.
    public static var schema: AdminSchema {
        .object("", ["path": .string("only conversations opened on this path"), "code": .integer("the close code (1000)"),
                     "reason": .string("the close reason")], optional: ["path", "code", "reason"])
    }
}

extension WebSocketReach {
    /// `POST /__stubd/websockets/send` and `…/close`.
    public static var schema: AdminSchema { .object("", ["count": .integer("conversations reached")]) }
}

extension WebSocketList {
    /// `GET /__stubd/websockets`.
    public static var schema: AdminSchema {
        .object("", ["open": .array(.object("an open conversation", [
            "id": .integer(""), "route": .string(""), "path": .string("the path it was opened on"),
            "opened": .string("when it opened (ISO 8601, UTC)"), "scopes": .array(.string(""), "open scopes (GraphQL subscription ids)"),
        ]), "")])
    }
}
