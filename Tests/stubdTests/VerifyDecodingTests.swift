import Foundation
import Testing
@testable import StubdCommands
import StubdTestTags

/// `stubd verify`'s decode check without a socket: each way a live body stops decoding as the
/// app's type is located by path and kind, never with the value (issue 34).
@Suite(.tags(.inMemory)) struct VerifyDecodingTests {
    struct Item: Decodable { let price: Double }
    struct Order: Decodable {
        enum Status: String, Decodable { case open, shipped }
        let id: Int
        let items: [Item]
        let status: Status
        let note: String
    }

    static let good = Array(#"{"id": 1, "items": [{"price": 2.5}], "status": "open", "note": "n"}"#.utf8)

    func live(_ json: String) -> String? {
        VerifyDecoding.check(Order.self, decoder: JSONDecoder(), fixture: Self.good, live: Array(json.utf8))
    }

    @Test func eachFailureIsLocatedByPathWithoutItsValue() {
        #expect(live(#"{"id": 1, "items": [{"price": 2.5}], "status": "open", "note": "n"}"#) == nil)
        #expect(live(#"{"id": 1, "items": [{"price": 1}, {"price": "SECRET-9"}], "status": "open", "note": "n"}"#)
                == "decode Order: fixture decodes; live body fails at $.items[1].price: expected Double, got string")
        #expect(live(#"{"id": 1, "items": [], "status": "open", "note": null}"#)
                == "decode Order: fixture decodes; live body fails at $.note: expected String, got null")
        #expect(live(#"{"id": 1, "items": [], "status": "open"}"#) == "decode Order: fixture decodes; live body fails at $.note: missing")
        let corrupted = live(#"{"id": 1, "items": [], "status": "SECRET-STATUS", "note": "n"}"#) ?? ""
        #expect(corrupted.hasPrefix("decode Order: fixture decodes; live body fails at $.status: ") && !corrupted.contains("SECRET-STATUS"), "\(corrupted)")
        #expect(live("not json")?.hasPrefix("decode Order: fixture decodes; live body fails at $: ") == true)
        #expect(VerifyDecoding.check(Order.self, decoder: JSONDecoder(), fixture: Array("{}".utf8), live: Self.good)
                == "decode Order: live body decodes; fixture fails at $.id: missing")
    }
}
