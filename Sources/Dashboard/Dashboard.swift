public import AdminAPI
import AdminContract
import FixtureFiles
import Foundation
import StubModel
import StubServer
import StubdEngine
import StubdState

/// The dashboard: its page, styles and script (files in `Resources/`, embedded at build time), the
/// live event stream (`/__stubd/events`), writing a fixture file the page drafted
/// (`/__stubd/ui/fixtures`, only into `--ui-write-dir`), and the metrics (`/__stubd/metrics`) —
/// endpoints it adds to the admin API (`endpoints`). Everything else the page shows comes from the
/// standard admin API.
public struct Dashboard: Sendable {
    /// The write folder, the page key, the counters.
    public let state: DashboardState

    /// A dashboard with `state`.
    public init(state: DashboardState) {
        self.state = state
    }

    /// Headers that keep the page to itself: no framing (its key cannot be read by a page that
    /// embeds it), no inline script (the script is `ui/app.js`), no referrer, no caching, and an
    /// opener of another origin (or a stub page that opens it) cut off.
    static let pageHeaders = [
        NameValue("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                  + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
        NameValue("X-Frame-Options", "DENY"),
        NameValue("Referrer-Policy", "no-referrer"),
        NameValue("Cache-Control", "no-store"),
        NameValue("Cross-Origin-Opener-Policy", "same-origin"),
        NameValue("X-Content-Type-Options", "nosniff"),
    ]

    /// The endpoints it adds to the admin API.
    public var endpoints: [AdminEndpoint] {
        let state = self.state
        return [
            AdminEndpoint(AdminContract.dashboard, page: true) { call in Self.page(for: call.client, state: state) },
            AdminEndpoint(AdminContract.dashboardScript, page: true) { _ in Self.script },
            AdminEndpoint(AdminContract.dashboardStyles, page: true) { _ in Self.styles },
            AdminEndpoint(AdminContract.writeFixture) { _, write throws(AdminRefusal) in try Self.writeFixture(write, into: state.writeDirectory) },
            AdminEndpoint(AdminContract.events, stream: { call in Self.events(call) }),
            AdminEndpoint(AdminContract.metrics) { call in Self.metrics(call.state, dashboard: state) },
        ]
    }

    /// The page, with this server's key and whether fixture files can be written. Refused to a
    /// request a browser marks as made for a frame or by a script (`Sec-Fetch-Dest`), so only a
    /// navigation gets the key.
    static func page(for client: ClientProfile, state: DashboardState) -> PreparedReply {
        if let destination = client.fetchDest, destination != "document" {
            return JSONReply.error("the dashboard is opened as a page, not fetched (Sec-Fetch-Dest: \(destination))", status: 403,
                                   problems: ["open \(AdminContract.prefix)/ui in the browser's address bar"])
        }
        let html = pageText
            .replacingOccurrences(of: "{{UI_KEY}}", with: state.uiKey)
            .replacingOccurrences(of: "{{WRITES}}", with: state.writeDirectory != nil ? "on" : "off")
        return PreparedReply(status: 200, headers: [NameValue("Content-Type", "text/html; charset=utf-8")] + pageHeaders, body: Array(html.utf8))
    }

    private static let pageText = String(decoding: PackageResources.dashboard_html, as: UTF8.self)

    private static let script = PreparedReply(status: 200, headers: [NameValue("Content-Type", "text/javascript; charset=utf-8")] + pageHeaders,
                                              body: PackageResources.dashboard_js)

    private static let styles = PreparedReply(status: 200, headers: [NameValue("Content-Type", "text/css; charset=utf-8")] + pageHeaders,
                                              body: PackageResources.dashboard_css)

    /// The journal as Server-Sent Events (`?session=` for one session; `Last-Event-ID` or
    /// `?lastEventId=` to resume; `?websockets=live` adds open conversations message by message).
    static func events(_ call: AdminEndpoint.Call) -> ReplyStream {
        let sessionName = call.query.first { $0.name == "session" }?.value
        let session = sessionName.flatMap { SessionID($0) } ?? call.session
        let resume = call.request.header("Last-Event-ID") ?? call.query.first { $0.name == "lastEventId" }?.value
        let live = call.query.contains { $0.name == "websockets" && $0.value == "live" }
        return JournalEventStream.open(journal: call.state.journal, webSockets: live ? call.state.webSockets : nil, session: session,
                                       lastEventID: resume.flatMap { CheckedNumber.decimalDigits($0.trimmingCharacters(in: .whitespaces)) })
    }

    /// Prometheus text format, version 0.0.4.
    static func metrics(_ server: SessionStore, dashboard: DashboardState) -> PreparedReply {
        PreparedReply(status: 200, headers: [NameValue("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                      body: Array(dashboard.metrics.exposition(server, loopLag: dashboard.loopLag).utf8))
    }

    /// Writes the fixture file into the write folder, whole or not at all, after reading it
    /// exactly as `stubd check` would.
    static func writeFixture(_ write: FixtureWrite, into folder: String?) throws(AdminRefusal) -> FixtureWritten {
        guard let folder else {
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
            try AtomicFile.write(bytes, named: write.file, inside: folder)
        } catch {
            throw AdminRefusal("\(error)", status: 500, problems: ["check that --ui-write-dir is a folder you can write, with no symbolic link below it"])
        }
        return FixtureWritten(path: path)
    }
}
