import Dispatch
import StubModel
import Testing
@testable import StubdEngine
@testable import StubServer

/// The socket a browser opens when a page's answer arrives counts as preconnected however soon
/// the page uses it; any other socket accepted after the page does not.
struct PageLoadsTests {
    static let chromium = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36"

    static func request(_ path: String, agent: String = chromium, headers: [NameValue] = [], connection: ConnectionUse) -> IncomingRequest {
        var request = IncomingRequest(method: "GET", target: path, headers: [NameValue("User-Agent", agent)] + headers, body: [])
        request.connection = connection
        return request
    }

    /// The page, on connection 2 of 3 accepted, none of them waiting unused.
    static func page(unused: Int = 0) -> IncomingRequest {
        request("/page.html", headers: [NameValue("Sec-Fetch-Mode", "navigate"), NameValue("Accept", "text/html")],
                connection: ConnectionUse(number: 2, request: 1, acceptOrder: 3, acceptedSoFar: 3, unusedAtArrival: unused))
    }

    /// A fetch that is the first request on the connection accepted `order`-th, 2 ms after its accept.
    static func fetch(order: Int, agent: String = chromium, request number: Int = 1) -> IncomingRequest {
        request("/reset-first", agent: agent, headers: [NameValue("Sec-Fetch-Mode", "cors")],
                connection: ConnectionUse(number: order, request: number, idleBeforeFirstRequest: 0.002,
                                          acceptedAt: DispatchTime.now().uptimeNanoseconds, acceptOrder: order, acceptedSoFar: order))
    }

    @Test func aNavigationIsAPageLoadAndAFetchIsNot() {
        let connection = ConnectionUse(number: 1, request: 1)
        #expect(PageLoads.isPageLoad(Self.request("/", headers: [NameValue("Sec-Fetch-Mode", "navigate")], connection: connection)))
        #expect(!PageLoads.isPageLoad(Self.request("/", headers: [NameValue("Sec-Fetch-Mode", "cors")], connection: connection)))
        // A LAN address gets no Sec-Fetch-* headers: a navigation still asks for HTML and an upgrade.
        #expect(PageLoads.isPageLoad(Self.request("/", headers: [NameValue("Upgrade-Insecure-Requests", "1"),
                                                                   NameValue("Accept", "text/html,application/xhtml+xml")], connection: connection)))
        #expect(!PageLoads.isPageLoad(Self.request("/", headers: [NameValue("Accept", "text/html")], connection: connection)))
    }

    @Test func onlyTheNextSocketAcceptedFromThePagesBrowserIsItsPreconnect() {
        let loads = PageLoads()
        #expect(!loads.isPreconnect(Self.fetch(order: 4)))
        loads.note(Self.page())
        #expect(loads.isPreconnect(Self.fetch(order: 4)))
        #expect(!loads.isPreconnect(Self.fetch(order: 5)), "a later socket is one opened for a request")
        #expect(!loads.isPreconnect(Self.fetch(order: 4, agent: "curl/7.88.1")), "another client's socket")
        #expect(!loads.isPreconnect(Self.fetch(order: 4, request: 2)), "not the socket's first request")
    }

    @Test func aSocketAlreadyWaitingMeansTheBrowserOpensNoneAfterThePage() {
        let loads = PageLoads()
        loads.note(Self.page())
        loads.note(Self.page(unused: 1))
        #expect(!loads.isPreconnect(Self.fetch(order: 4)), "the next socket was opened for a request")
        #expect(loads.isPreconnect(Self.fetch(order: 2)), "the one left unused through the page load was opened ahead of need")
    }

    @Test func theFaultStepIsHeldOnThePreconnectAndConsumedOnAFreshSocket() {
        let delivery = FaultStepDelivery(scenarios: ScenarioBook())
        let since = DispatchTime.now().uptimeNanoseconds - 1_000_000
        // Accepted after the last answer and used 2 ms later: by time alone, opened for the request.
        #expect(!delivery.expectsResend(Self.fetch(order: 4), since: since))
        delivery.answering(Self.page())
        #expect(delivery.expectsResend(Self.fetch(order: 4), since: since))
        #expect(!delivery.expectsResend(Self.fetch(order: 5), since: since))
        // A client known to report such failures is never held, page load or not.
        #expect(!delivery.expectsResend(Self.fetch(order: 4, agent: "node"), since: since))
    }
}
