import Testing
import StubModel
import StubServer
import StubdEngine
import StubdTestTags

/// The one table of who a client is: what the admin guard and the dashboard read ("a page") and
/// what the journal reads ("a client that re-sends"). Nothing sent depends on it
/// (`FaultStepEndToEndTests.aFaultStepIsTheSameBytesForEveryUserAgent`). A measured client that
/// needs other handling is a row here first.
@Suite(.tags(.socket)) struct ClientProfileTests {
    struct Row: Sendable, CustomStringConvertible {
        let name: String
        let headers: [(String, String)]
        var method = "GET"
        var connectionRequest: Int? = 1
        let family: ClientProfile.Family
        let isPage: Bool
        let resends: Bool
        var description: String { name }
    }

    static let rows: [Row] = [
        Row(name: "curl", headers: [("User-Agent", "curl/7.88.1")], family: .other, isPage: false, resends: false),
        Row(name: "curl, reused connection", headers: [("User-Agent", "curl/7.88.1")], connectionRequest: 2, family: .other, isPage: false, resends: true),
        Row(name: "URLSession, reused", headers: [("User-Agent", "xctest (unknown version) CFNetwork/1.0")], connectionRequest: 3, family: .other,
            isPage: false, resends: true),
        Row(name: "OkHttp, reused", headers: [("User-Agent", "okhttp/3.13.1")], connectionRequest: 2, family: .other, isPage: false, resends: true),
        Row(name: "Python requests, reused", headers: [("User-Agent", "python-requests/2.28.1")], connectionRequest: 2, family: .reportsFailures,
            isPage: false, resends: false),
        Row(name: "Node http, reused", headers: [("User-Agent", "node")], connectionRequest: 2, family: .reportsFailures, isPage: false, resends: false),
        Row(name: "Java GET, fresh", headers: [("User-Agent", "Java-http-client/17.0.9")], family: .resendsReads, isPage: false, resends: true),
        Row(name: "Java POST", headers: [("User-Agent", "Java-http-client/17.0.9")], method: "POST", family: .resendsReads, isPage: false, resends: false),
        Row(name: "aiohttp GET, fresh", headers: [("User-Agent", "Python/3.11 aiohttp/3.14.5")], family: .resendsReads, isPage: false, resends: true),
        Row(name: "httpx, reused", headers: [("User-Agent", "python-httpx/0.28.1")], connectionRequest: 2, family: .reportsFailures,
            isPage: false, resends: false),
        Row(name: "Chromium fetch", headers: [("User-Agent", "Mozilla/5.0 Chrome/156"), ("Sec-Fetch-Mode", "cors"), ("Sec-Fetch-Site", "same-origin"),
                                              ("Sec-Fetch-Dest", "empty")], connectionRequest: 2, family: .browser, isPage: true, resends: true),
        Row(name: "a page on a LAN address (no Fetch Metadata)", headers: [("User-Agent", "Mozilla/5.0"), ("Origin", "http://192.168.1.9:3000")],
            family: .browser, isPage: true, resends: true),
        // A Mozilla/ User-Agent is taken for a browser by the journal's re-send marks only; it is
        // not a page, and what it is sent is what curl is sent.
        Row(name: "curl -A Mozilla/5.0", headers: [("User-Agent", "Mozilla/5.0")], connectionRequest: 2, family: .browser, isPage: false, resends: true),
        // Node's global fetch sends Sec-Fetch-Mode: cors alone (measured, Node 20): a client that
        // reports failures, not a page and not a browser.
        Row(name: "Node fetch (undici)", headers: [("User-Agent", "node"), ("Sec-Fetch-Mode", "cors")], connectionRequest: 2, family: .reportsFailures,
            isPage: false, resends: false),
        Row(name: "Sec-Fetch-Mode and -Dest without -Site or Origin", headers: [("Sec-Fetch-Mode", "cors"), ("Sec-Fetch-Dest", "empty")],
            family: .other, isPage: false, resends: false),
        Row(name: "a browser's cross-site request", headers: [("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Mode", "no-cors")],
            family: .browser, isPage: true, resends: true),
        Row(name: "no User-Agent, engine without connection numbers", headers: [], connectionRequest: nil, family: .other, isPage: false, resends: false),
    ]

    @Test(arguments: rows) func aClientIsDecidedOnce(row: Row) {
        var request = IncomingRequest(method: row.method, target: "/x", headers: row.headers.map { NameValue($0.0, $0.1) })
        request.connection = row.connectionRequest.map { ConnectionUse(number: 1, request: $0) }
        let profile = ClientProfile(request)
        #expect(profile.family == row.family)
        #expect(profile.isPage == row.isPage)
        #expect(profile.resendsAfterNoByteFailure == row.resends)
    }

    /// Fetch Metadata reads as a browser sends it, in any case.
    @Test func fetchMetadataIsReadCaseInsensitively() {
        let profile = ClientProfile(IncomingRequest(method: "GET", target: "/", headers: [NameValue("sec-fetch-dest", "IFrame"), NameValue("origin", "null")]))
        #expect(profile.fetchDest == "iframe" && profile.origin == "null" && profile.isPage)
    }
}
