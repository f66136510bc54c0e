import StubModel
import Testing
@testable import StubdEngine
import StubdTestTags

/// The request is a value although its fields share one box: a copy that is changed leaves the
/// original as it was, on any field.
@Suite(.tags(.inMemory))
struct IncomingRequestTests {
    @Test func aChangedCopyLeavesTheOriginalAlone() {
        var original = IncomingRequest(method: "GET", target: "/a?x=1", headers: [NameValue("Accept", "*/*")], body: [1, 2])
        original.peer = "127.0.0.1"
        var copy = original
        copy.method = "POST"
        copy.rawPath = "/b"
        copy.rawQuery = nil
        copy.headers.append(NameValue("X-Extra", "1"))
        copy.body = []
        copy.peer = "::1"
        copy.connection = ConnectionUse(number: 7, request: 2)
        copy.isTLS = true
        #expect(original.method == "GET" && original.rawPath == "/a" && original.rawQuery == "x=1")
        #expect(original.headers == [NameValue("Accept", "*/*")] && original.body == [1, 2])
        #expect(original.peer == "127.0.0.1" && original.connection == nil && !original.isTLS)
        #expect(copy.method == "POST" && copy.rawPath == "/b" && copy.rawQuery == nil && copy.headers.count == 2)
        #expect(copy.peer == "::1" && copy.connection?.number == 7 && copy.isTLS)
        #expect(copy.header("x-extra") == "1" && original.header("X-Extra") == nil)
    }
}
