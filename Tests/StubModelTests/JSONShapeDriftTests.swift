import Testing
import StubModel
import StubdTestTags

/// Shape drift between a fixture's JSON and a live answer: removed, added, retyped, now null — by
/// path, never by value.
@Suite(.tags(.inMemory)) struct JSONShapeDriftTests {
    @Test func eachKindOfDriftIsNamedByPath() throws {
        let fixture = try JSONParser.parse(#"{"id": 1, "plan": {"name": "pro"}, "bio": "x", "items": [{"price": 1.5}, {"tax": 0.2}], "note": null}"#)
        let live = try JSONParser.parse(#"{"id": "1", "bio": null, "token": "SECRET", "items": [{"price": "1.5", "tax": 0.3}], "note": "now text"}"#)
        let changes = JSONShapeDrift.between(fixture: fixture, live: live).map(\.description)
        #expect(changes == ["$.id: retyped, number → string", "$.plan: removed (was object)", "$.bio: now null (was string)",
                            "$.items[].price: retyped, number → string", "$.token: added (string)"], "\(changes)")
        #expect(!changes.joined().contains("SECRET"))
        #expect(JSONShapeDrift.between(fixture: fixture, live: fixture).isEmpty)
    }
}
