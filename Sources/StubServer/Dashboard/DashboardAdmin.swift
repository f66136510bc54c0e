import FixtureFiles
import Foundation
import StubModel
import StubdEngine

/// The dashboard's endpoints: the page and its script (`/__stubd/ui`), the live event stream
/// (`/__stubd/events`), writing a fixture file the page drafted (`/__stubd/ui/fixtures`, only
/// into `--ui-write-dir`), and the metrics (`/__stubd/metrics`). Everything else the page shows
/// comes from the ordinary admin API.
struct DashboardAdmin {
    let admin: StubAdmin

    /// Headers that keep the page to itself: no framing (its key cannot be read by a page that
    /// embeds it), no inline script (the script is `ui/app.js`), no referrer, no caching.
    static let pageHeaders = [
        NameValue("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                  + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
        NameValue("X-Frame-Options", "DENY"),
        NameValue("Referrer-Policy", "no-referrer"),
        NameValue("Cache-Control", "no-store"),
        NameValue("Cross-Origin-Opener-Policy", "same-origin"),
        NameValue("X-Content-Type-Options", "nosniff"),
    ]

    /// The page, with this server's key and whether fixture files can be written. Refused to a
    /// request a browser marks as made for a frame or by a script (`Sec-Fetch-Dest`), so only a
    /// navigation gets the key.
    func page(request: IncomingRequest) -> PreparedReply {
        if let destination = request.header("Sec-Fetch-Dest"), destination != "document" {
            return AdminReply.error("the dashboard is opened as a page, not fetched (Sec-Fetch-Dest: \(destination))", status: 403,
                                    problems: ["open \(AdminRouter.prefix)/ui in the browser's address bar"])
        }
        let writes = admin.dashboard.writeDirectory != nil ? "on" : "off"
        let html = DashboardPage.html
            .replacingOccurrences(of: "{{UI_KEY}}", with: admin.dashboard.uiKey)
            .replacingOccurrences(of: "{{WRITES}}", with: writes)
        return PreparedReply(status: 200, headers: [NameValue("Content-Type", "text/html; charset=utf-8")] + Self.pageHeaders,
                             body: Array(html.utf8))
    }

    /// The page's script.
    static func script() -> PreparedReply {
        scriptReply
    }

    private static let scriptReply = PreparedReply(
        status: 200, headers: [NameValue("Content-Type", "text/javascript; charset=utf-8")] + pageHeaders, body: Array(DashboardScript.source.utf8))

    /// The journal as Server-Sent Events (`?session=` for one session; `Last-Event-ID` or
    /// `?lastEventId=` to resume).
    func events(_ call: AdminEndpoint.Call) -> ReplyStream {
        let sessionName = call.query.first { $0.name == "session" }?.value
        let session = sessionName.flatMap { SessionID($0) } ?? call.session
        let resume = call.request.header("Last-Event-ID") ?? call.query.first { $0.name == "lastEventId" }?.value
        return JournalEventStream.open(journal: admin.journal, session: session, lastEventID: resume.flatMap { Int($0) })
    }

    /// Prometheus text format, version 0.0.4.
    func metrics() -> PreparedReply {
        PreparedReply(status: 200, headers: [NameValue("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                      body: Array(admin.dashboard.metrics.exposition(admin).utf8))
    }

    /// Writes the fixture file into the write folder, whole or not at all, after reading it
    /// exactly as `stubd check` would.
    func writeFixture(_ write: FixtureWrite) throws(AdminRefusal) -> FixtureWritten {
        guard let folder = admin.dashboard.writeDirectory else {
            throw AdminRefusal("writing fixture files is off", status: 403,
                               problems: ["start stubd with --ui-write-dir FOLDER to let the dashboard write fixture files there"])
        }
        let bytes = Array((JSONWriter.write(write.document, pretty: true) + "\n").utf8)
        let path = folder + "/" + write.file
        do {
            try FixtureDraft.check(bytes, file: path)
        } catch {
            throw AdminRefusal("\(write.file) is not a valid fixture file", problems: error.problems)
        }
        if !write.overwrite && FileManager.default.fileExists(atPath: path) {
            throw AdminRefusal("\(path) exists", status: 409, problems: [#"choose another name, or send "overwrite": true to replace it"#])
        }
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw AdminRefusal("\(path) cannot be written (\(error))", status: 500, problems: ["check that --ui-write-dir is a folder you can write"])
        }
        return FixtureWritten(path: path)
    }
}
