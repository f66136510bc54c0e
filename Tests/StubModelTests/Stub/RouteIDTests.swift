import Testing
@testable import StubModel
import StubdTestTags

@Suite(.tags(.inMemory))
struct RouteIDTests {
    @Test func idsRoundTripThroughTheirTextAndRejectAnythingElse() {
        #expect(RouteID("f3") == RouteID(.fixture, 3))
        #expect(RouteID("r12")?.description == "r12")
        #expect(RouteID("x1") == nil)
        #expect(RouteID("r") == nil)
        #expect(RouteID("r-1") == nil)
        let empty: String? = "", none: String? = nil, named: String? = "t"
        #expect(SessionID(empty) == nil)
        #expect(SessionID(none) == nil)
        #expect(SessionID(named)?.rawValue == "t")
    }
}
