import Testing
import StubModel
import AdminContract
import StubdTestTags

/// A body's field table is the one list its reader, writer and schema come from: a member added
/// to the table is read, written and published with nothing else changed, and a property left out
/// of the journal entry's table fails here.
@Suite(.tags(.inMemory)) struct WireTableTests {
    /// A body as a newcomer would declare one: two members.
    struct Probe: Equatable {
        var name = ""
        var count: Int?
        static let wire = WireTable<Probe>("a probe", [
            .member("name", \.name, "its name"),
            .member("count", \.count, "how many"),
        ])
    }

    /// The same body with one member more — its property and one table line, as the journal's
    /// `server` member would be added today.
    struct ProbeWithOneMore: Equatable {
        var name = ""
        var count: Int?
        var server: String?
        static let wire = WireTable<ProbeWithOneMore>("a probe", [
            .member("name", \.name, "its name"),
            .member("count", \.count, "how many"),
            .member("server", \.server, "where it was for"),
        ])
    }

    @Test func oneTableLineIsReadWrittenAndPublished() throws {
        var probe = ProbeWithOneMore()
        probe.name = "a"
        probe.server = "https://api.example.com"
        let json = ProbeWithOneMore.wire.json(probe)
        #expect(json == .object([("name", .string("a")), ("server", .string("https://api.example.com"))]))
        var read = ProbeWithOneMore()
        try ProbeWithOneMore.wire.read(json, into: &read, usage: "expected a probe")
        #expect(read == probe)
        var inline: [(name: String, schema: JSONValue)]?
        let published = String(describing: ProbeWithOneMore.wire.schema.json(components: &inline))
        #expect(published.contains("where it was for"), "\(published)")
        // The smaller body reads the larger one's JSON (a newer server's member is ignored).
        var older = Probe()
        try Probe.wire.read(json, into: &older, usage: "expected a probe")
        #expect(older.name == "a" && older.count == nil)
    }

    @Test func aMissingOrMistypedMemberIsRefusedNamingIt() {
        var probe = Probe()
        #expect(throws: AdminBodyProblem("name: expected a string")) { try Probe.wire.read(.object([]), into: &probe, usage: "u") }
        #expect(throws: AdminBodyProblem("count: expected a whole number")) {
            try Probe.wire.read(.object([("name", .string("a")), ("count", .number(1.5))]), into: &probe, usage: "u")
        }
        #expect(throws: AdminBodyProblem("u")) { try Probe.wire.read(.array([]), into: &probe, usage: "u") }
    }

    /// Every member of the journal entry set to something not its default.
    static var full: RequestRecord {
        var record = RequestRecord()
        record.sequence = 7
        record.time = "2026-12-02T12:00:00.000Z"
        record.method = "GET"
        record.url = "/a?b=1"
        record.path = "/a"
        record.server = "https://api.example.com"
        record.session = "s"
        record.connection = 3
        record.connectionRequest = 2
        record.protocol = "h2"
        record.headers = [NameValue("Host", "api.example.com")]
        record.body = "x"
        record.bodyBase64 = "eA=="
        record.bodySize = 1
        record.bodyNote = "note"
        record.matched = true
        record.routeID = "f1"
        record.route = "a"
        record.nearMiss = "b"
        record.status = 200
        record.fault = "reset"
        record.faultSentAs = RequestRecord.cutShort
        record.latencyMs = 1.25
        record.response = .object([("status", .int(200))])
        record.resend = true
        return record
    }

    @Test func theJournalEntrysTableHoldsEveryPropertyAndRoundTrips() throws {
        let full = Self.full
        // A stored property without its table line would be neither read nor written nor published.
        #expect(Mirror(reflecting: full).children.count == RequestRecord.wire.fields.count)
        guard case .object(let members) = full.json else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == RequestRecord.wire.fields.map(\.name))
        #expect(try RequestRecord(json: full.json) == full)
        #expect(try RequestRecord(json: RequestRecord().json) == RequestRecord())
        let required = RequestRecord.wire.fields.filter(\.isRequired).map(\.name)
        #expect(required == ["sequence", "time", "method", "url", "path", "headers", "bodySize", "matched", "latencyMs"])
    }

    @Test func everyTabledBodyListsEachPropertyOnceAndRoundTrips() throws {
        // A stored property without its table line would be neither read nor written nor published.
        #expect(Mirror(reflecting: WebhookRecord()).children.count == WebhookRecord.wire.fields.count)
        #expect(Mirror(reflecting: RouteEntry()).children.count == RouteEntry.wire.fields.count)
        var webhook = WebhookRecord()
        (webhook.sequence, webhook.route, webhook.attempts, webhook.status, webhook.error) = (3, "pay", 2, 500, "gave up")
        #expect(try WebhookRecord(json: webhook.json) == webhook)
        var route = RouteEntry()
        (route.id, route.origin, route.hits, route.route, route.disabled) = ("f1", "fixture", 4, .object([("name", .string("zen"))]), true)
        #expect(try RouteEntry(json: route.json) == route)
        guard case .object(let members) = RouteEntry().json else { Issue.record("not an object"); return }
        #expect(!members.contains { $0.key == "disabled" || $0.key == "session" }, "absent members are not written")
    }
}
