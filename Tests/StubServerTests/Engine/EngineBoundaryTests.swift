import Foundation
import Testing

/// The engine imports nothing from routing, stubs, matching, the journal or the admin API: its
/// files name none of their types. (The compiler cannot check this inside one module; this does.)
struct EngineBoundaryTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/StubServer")

    @Test func engineFilesNameNoTypeFromTheLayersAboveIt() throws {
        let above = ["Routing", "Matching", "Stubs", "Journal", "Admin", "Server", "Exchange", "Proxy", "Recording", "Redaction"]
        var names: Set<String> = []
        for folder in above {
            for file in try FileManager.default.contentsOfDirectory(atPath: Self.sources.appendingPathComponent(folder).path) {
                let text = try String(contentsOf: Self.sources.appendingPathComponent("\(folder)/\(file)"), encoding: .utf8)
                let pattern = try NSRegularExpression(pattern: #"(?m)^(?:public |final |private |fileprivate )*(?:final )?(?:class|struct|enum|protocol) (\w+)"#)
                for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    names.insert(String(text[Range(match.range(at: 1), in: text)!]))
                }
            }
        }
        #expect(names.contains("RouteTable") && names.contains("StubAdmin"))
        let engine = Self.sources.appendingPathComponent("Engine")
        let engineFiles = (FileManager.default.subpaths(atPath: engine.path) ?? []).filter { $0.hasSuffix(".swift") }
        #expect(engineFiles.contains("TLS/LocalCertificateAuthority.swift"), "sub-folders are checked too")
        for file in engineFiles {
            let text = try String(contentsOf: engine.appendingPathComponent(file), encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            for name in names {
                let uses = try NSRegularExpression(pattern: "\\b\(name)\\b").numberOfMatches(in: code, range: NSRange(code.startIndex..., in: code))
                #expect(uses == 0, "Engine/\(file) uses \(name)")
            }
        }
    }
}
