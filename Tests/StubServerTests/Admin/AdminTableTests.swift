import Foundation
import Testing
import StubModel
@testable import StubServer
@testable import StubdEngine

/// The admin API is one table: every endpoint in it is documented in the README's admin
/// reference and every documented endpoint is in it; a path parameter never shadows a fixed word.
@Suite struct AdminTableTests {
    static let readme: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }()

    /// `GET /__stubd/requests` from a README row `| \`GET /__stubd/requests?method=…\` | …`.
    static let documented: Set<String> = Set(readme.split(separator: "\n").compactMap { line in
        guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
        let cell = line[line.index(line.startIndex, offsetBy: 3)..<end]
        guard cell.contains(" /__stubd/") else { return nil }
        return String(cell.prefix { $0 != "?" })
    })

    @Test func everyEndpointIsDocumentedAndEveryDocumentedOneServed() {
        let served = Set(AdminRouter.endpoints)
        #expect(served.count == AdminRouter.table.count, "no endpoint twice")
        #expect(!Self.documented.isEmpty)
        #expect(served.subtracting(Self.documented).isEmpty, "served but not in the README: \(served.subtracting(Self.documented).sorted())")
        #expect(Self.documented.subtracting(served).isEmpty, "in the README but not served: \(Self.documented.subtracting(served).sorted())")
    }

    @Test func fixedWordsWinOverParameters() throws {
        let reset = try #require(AdminRouter.table.first { $0.match(method: "POST", path: ["scenarios", "reset"]) != nil })
        #expect(reset.description == "POST /__stubd/scenarios/reset")
        let named = try #require(AdminRouter.table.first { $0.match(method: "PUT", path: ["scenarios", "checkout"]) != nil })
        #expect(named.description == "PUT /__stubd/scenarios/{name}")
        #expect(named.match(method: "PUT", path: ["scenarios", "checkout"]) == ["checkout"])
        let count = try #require(AdminRouter.table.first { $0.match(method: "GET", path: ["requests", "count"]) != nil })
        #expect(count.description == "GET /__stubd/requests/count")
    }

    @Test func anUnknownEndpointIs404ListingTheTable() throws {
        let router = AdminRouter(admin: StubAdmin(fixtures: .empty))
        guard case .now(let reply) = router.handle(IncomingRequest(method: "GET", target: "/__stubd/nothing"), session: nil) else {
            Issue.record("answered later")
            return
        }
        #expect(reply.status == 404)
        let text = String(decoding: reply.body, as: UTF8.self)
        for endpoint in AdminRouter.endpoints { #expect(text.contains(endpoint), "\(endpoint)") }
    }
}
