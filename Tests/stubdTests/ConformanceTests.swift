import Foundation
import Testing
import StubdTestTags

/// The `make test` part of `make conformance`: the real curl, Python requests, httpx, aiohttp and
/// Node fetch clients run every fault, the JSON route and the fault sequences — with their own
/// User-Agent and a browser's — against this build of stubd (Java, OkHttp, URLSession and
/// Chromium run in `make conformance`).
@Suite(.tags(.process)) struct ConformanceTests {
    static let clients = ["curl", "requests", "httpx", "aiohttp", "node"]

    @Test func everyClientReportsEveryFaultAndSeesEveryFaultStepOnce() throws {
        let result = try StubdProcess.run(
            ["python3", "conformance/run.py", "--stubd", StubdProcess.executable.path, "--clients", Self.clients.joined(separator: ",")],
            timeout: 240, program: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let rows = Dictionary(result.stdout.split(separator: "\n").filter { $0.hasPrefix("| `") || $0.hasPrefix("| JSON") || $0.hasPrefix("| sequence") }
            .map { line -> (String, [String]) in
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                return (cells[0], Array(cells.dropFirst()))
            }, uniquingKeysWith: { first, _ in first })
        #expect(rows["`reset` (-1005, other codes)"]?.first?.hasPrefix("✓ 56 ") == true, "\(rows)")
        #expect(rows["`empty` (-1011)"]?.first?.hasPrefix("✓ 52 ") == true)
        #expect(rows["`truncated` (-1014)"]?.first?.hasPrefix("✓ 18 ") == true)
        #expect(rows["`badChunk` (-1017)"]?.first?.hasPrefix("✓ 56 Illegal") == true)
        #expect(rows["`hang` (-1001), client timeout 2 s"]?.first?.hasPrefix("✓ 28 ") == true)
        #expect(rows["`truncated` (-1014)"]?[1].hasPrefix("✓ ChunkedEncodingError") == true)
        #expect(rows["JSON route, the client's own Content-Type"] == Array(repeating: "✓ 201 '{\"id\":9}'", count: Self.clients.count))
        // Every fault step: one failure, then ok, one attempt per request — whatever the User-Agent.
        for agent in ["", ", `Mozilla/5.0` User-Agent"] {
            for (row, cell) in [("sequence `[500, reset, ok]`", "✓ 500 → error → 200 — 3 attempts"),
                                ("sequence `[500, empty, ok]`", "✓ 500 → error → 200 — 3 attempts"),
                                ("sequence `[reset, ok]` after another route", "✓ error → 200 — 2 attempts"),
                                ("sequence `[empty, ok]` after another route", "✓ error → 200 — 2 attempts")] {
                #expect(rows[row + agent] == Array(repeating: cell, count: Self.clients.count), "\(row + agent): \(rows[row + agent] ?? [])")
            }
        }
    }
}
