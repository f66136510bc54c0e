import FixtureFiles
import Foundation
import StubModel

/// A suite's own Handlebars helpers (registered in Java, such as `{{currentYear}}`), declared for
/// stubd in a small JSON file: `{"currentYear": "{{now format='yyyy'}}"}`. Each use of a declared
/// helper without arguments is replaced by its template before the mapping's templates are read.
public enum TemplateHelpers {
    /// Reads a helpers file; every problem names the file and the helper.
    public static func load(_ file: String) throws(FixtureError) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw FixtureError(file: file, field: "", problem: "cannot be read; check the path")
        }
        guard case .object(let members)? = try? JSONParser.parse([UInt8](data)) else {
            throw FixtureError(file: file, field: "", problem: "expected a JSON object of helper name: stubd template, e.g. {\"currentYear\": \"{{now format='yyyy'}}\"}")
        }
        var helpers: [String: String] = [:]
        for member in members {
            guard member.key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !member.key.isEmpty else {
                throw FixtureError(file: file, field: member.key, problem: "a helper name is letters, digits and _ only")
            }
            guard case .string(let text) = member.value else { throw FixtureError(file: file, field: member.key, problem: "expected a template string") }
            if case .failure(let problem) = TemplateText.parse(text) { throw FixtureError(file: file, field: member.key, problem: problem.description) }
            helpers[member.key] = text
        }
        return helpers
    }

    /// `text` with each `{{name}}` of a declared helper replaced by its template.
    static func expand(_ text: String, _ helpers: [String: String]) -> String {
        guard text.contains("{{") else { return text }
        var out = text
        for (name, template) in helpers {
            out = out.replacingOccurrences(of: #"\{\{\s*\#(NSRegularExpression.escapedPattern(for: name))\s*\}\}"#, with: NSRegularExpression.escapedTemplate(for: template),
                                           options: .regularExpression)
        }
        return out
    }
}
