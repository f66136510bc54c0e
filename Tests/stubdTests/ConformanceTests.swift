import Foundation
import Testing
import StubdTestTags

/// The `make test` part of `make conformance`: the real curl and Python requests clients run every
/// fault, the JSON route and the fault sequences against this build of stubd (the other clients
/// run in `make conformance`).
@Suite(.tags(.process)) struct ConformanceTests {
    @Test func curlAndPythonRequestsReportEveryFaultAndSeeEveryFaultStep() throws {
        let result = try StubdProcess.run(
            ["python3", "conformance/run.py", "--stubd", StubdProcess.executable.path, "--clients", "curl,requests"],
            timeout: 120, program: URL(fileURLWithPath: "/usr/bin/env"))
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
        #expect(rows["`truncated` (-1014)"]?.last?.hasPrefix("✓ ChunkedEncodingError") == true)
        #expect(rows["sequence `[500, reset, ok]`"] == ["✓ 500 → error → 200 — 3 attempts", "✓ 500 → error → 200 — 3 attempts"])
        #expect(rows["sequence `[reset, ok]` after another route"]?.allSatisfy { $0.hasPrefix("✓ error → 200") } == true)
        #expect(rows["JSON route, the client's own Content-Type"] == ["✓ 201 '{\"id\":9}'", "✓ 201 '{\"id\":9}'"])
    }
}
