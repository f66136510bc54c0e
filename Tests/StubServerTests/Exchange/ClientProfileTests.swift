import Testing
import StubModel
import StubServer
import StubdEngine
import StubdTestTags

/// The one table of who a client is: what the admin guard and the dashboard read ("a page"). The
/// User-Agent decides nothing (`FaultStepEndToEndTests.aFaultStepIsTheSameBytesForEveryUserAgent`;
/// re-sends are told by what arrives, `ResendJournalTests`). A measured client that needs other
/// handling is a row here first.
@Suite(.tags(.inMemory)) struct ClientProfileTests {
    struct Row: Sendable, CustomStringConvertible {
        let name: String
        let headers: [(String, String)]
        let isPage: Bool
        var description: String { name }
    }

    static let rows: [Row] = [
        Row(name: "curl", headers: [("User-Agent", "curl/7.88.1")], isPage: false),
        Row(name: "Chromium fetch", headers: [("User-Agent", "Mozilla/5.0 Chrome/156"), ("Sec-Fetch-Mode", "cors"), ("Sec-Fetch-Site", "same-origin"),
                                              ("Sec-Fetch-Dest", "empty")], isPage: true),
        Row(name: "a page on a LAN address (no Fetch Metadata)", headers: [("User-Agent", "Mozilla/5.0"), ("Origin", "http://192.168.1.9:3000")], isPage: true),
        // A Mozilla/ User-Agent alone is no page: what it is sent is what curl is sent.
        Row(name: "curl -A Mozilla/5.0", headers: [("User-Agent", "Mozilla/5.0")], isPage: false),
        // Node's global fetch sends Sec-Fetch-Mode: cors alone (measured, Node 20): a client, not a page.
        Row(name: "Node fetch (undici)", headers: [("User-Agent", "node"), ("Sec-Fetch-Mode", "cors")], isPage: false),
        Row(name: "Sec-Fetch-Mode and -Dest without -Site or Origin", headers: [("Sec-Fetch-Mode", "cors"), ("Sec-Fetch-Dest", "empty")], isPage: false),
        Row(name: "a browser's cross-site request", headers: [("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Mode", "no-cors")], isPage: true),
        Row(name: "no headers", headers: [], isPage: false),
    ]

    @Test(arguments: rows) func aClientIsDecidedOnce(row: Row) {
        let profile = ClientProfile(IncomingRequest(method: "GET", target: "/x", headers: row.headers.map { NameValue($0.0, $0.1) }))
        #expect(profile.isPage == row.isPage)
    }

    /// Fetch Metadata reads as a browser sends it, in any case.
    @Test func fetchMetadataIsReadCaseInsensitively() {
        let profile = ClientProfile(IncomingRequest(method: "GET", target: "/", headers: [NameValue("sec-fetch-dest", "IFrame"), NameValue("origin", "null")]))
        #expect(profile.fetchDest == "iframe" && profile.origin == "null" && profile.isPage)
    }
}
