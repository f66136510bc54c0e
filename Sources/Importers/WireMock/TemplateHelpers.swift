public import FixtureFiles
import Foundation
import StubModel

/// A suite's own Handlebars helpers (registered in Java, such as `{{currentYear}}` or
/// WooCommerce's `{{fnow offset='-3 days' format='yyyy-MM-dd'}}`), declared for stubd in a small
/// JSON file. A helper is a stubd template; one with arguments names them `$name` in its template
/// and may give defaults:
///
///     {"currentYear": "{{now format='yyyy'}}",
///      "fnow": {"template": "{{now offset=$offset format=$format}}",
///               "arguments": {"offset": "0 days", "format": "yyyy-MM-dd'T'HH:mm:ss"}}}
///
/// Each use of a declared helper is replaced by its template — its `$name`s by the use's
/// `name=…` values (as written: `'-3 days'`, or a request value) or the defaults, quoted — before
/// the mapping's templates are read.
public enum TemplateHelpers {
    /// One declared helper.
    public struct Helper: Sendable, Equatable {
        /// The template, with `$name` where an argument goes.
        public let template: String
        /// Defaults of the arguments, as text.
        public let defaults: [String: String]
    }

    /// Reads a helpers file; every problem names the file and the helper.
    public static func load(_ file: String) throws(FixtureError) -> [String: Helper] {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw FixtureError(file: file, field: "", problem: "cannot be read; check the path")
        }
        guard case .object(let members)? = try? JSONParser.parse([UInt8](data)) else {
            throw FixtureError(file: file, field: "", problem: "expected a JSON object of helper name: stubd template, e.g. {\"currentYear\": \"{{now format='yyyy'}}\"}")
        }
        var helpers: [String: Helper] = [:]
        for member in members {
            guard member.key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !member.key.isEmpty else {
                throw FixtureError(file: file, field: member.key, problem: "a helper name is letters, digits and _ only")
            }
            let helper: Helper
            switch member.value {
            case .string(let text):
                helper = Helper(template: text, defaults: [:])
            case .object:
                guard case .string(let text)? = member.value["template"] else {
                    throw FixtureError(file: file, field: member.key + ".template", problem: "expected the helper's template, with $name where an argument goes")
                }
                var defaults: [String: String] = [:]
                if case .object(let given)? = member.value["arguments"] {
                    for argument in given {
                        guard case .string(let value) = argument.value else {
                            throw FixtureError(file: file, field: "\(member.key).arguments.\(argument.key)", problem: "expected the default as a string")
                        }
                        defaults[argument.key] = value
                    }
                } else if member.value["arguments"] != nil {
                    throw FixtureError(file: file, field: member.key + ".arguments", problem: "expected an object of argument name: default")
                }
                helper = Helper(template: text, defaults: defaults)
            default:
                throw FixtureError(file: file, field: member.key, problem: "expected a template string, or {\"template\": …, \"arguments\": {…}}")
            }
            // The template must read once its arguments are filled (with their defaults, or a placeholder).
            let sample = fill(helper.template, [:], defaults: helper.defaults, placeholder: true)
            if case .failure(let problem) = TemplateText.parse(sample) { throw FixtureError(file: file, field: member.key, problem: problem.description) }
            helpers[member.key] = helper
        }
        return helpers
    }

    /// `text` with each use of a declared helper replaced by its template, arguments filled.
    static func expand(_ text: String, _ helpers: [String: Helper]) -> String {
        guard text.contains("{{") else { return text }
        var out = text
        for (name, helper) in helpers {
            let pattern = #"\{\{\s*\#(NSRegularExpression.escapedPattern(for: name))(\s+[^}]*)?\s*\}\}"#
            guard let expression = try? NSRegularExpression(pattern: pattern) else { continue }
            let whole = out as NSString
            var rebuilt = ""
            var last = 0
            for match in expression.matches(in: out, range: NSRange(location: 0, length: whole.length)) {
                rebuilt += whole.substring(with: NSRange(location: last, length: match.range.location - last))
                var given: [String: String] = [:]
                if match.range(at: 1).location != NSNotFound {
                    for word in TemplateText.words(whole.substring(with: match.range(at: 1))) {
                        guard let equals = word.firstIndex(of: "=") else { continue }
                        given[String(word[..<equals])] = String(word[word.index(after: equals)...])
                    }
                }
                rebuilt += fill(helper.template, given, defaults: helper.defaults, placeholder: false)
                last = match.range.location + match.range.length
            }
            rebuilt += whole.substring(from: last)
            out = rebuilt
        }
        return out
    }

    /// The template with `$name` replaced by the given token, else the default quoted.
    private static func fill(_ template: String, _ given: [String: String], defaults: [String: String], placeholder: Bool) -> String {
        var out = template
        let names = Set(defaults.keys).union(given.keys).union(argumentNames(in: template)).sorted { $0.count > $1.count }
        for name in names {
            let value = given[name] ?? defaults[name].map { "'" + $0.replacingOccurrences(of: "'", with: "\\'") + "'" } ?? (placeholder ? "''" : nil)
            guard let value else { continue }
            out = out.replacingOccurrences(of: "$" + name, with: value)
        }
        return out
    }

    private static func argumentNames(in template: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: #"\$([A-Za-z_][A-Za-z0-9_]*)"#) else { return [] }
        let text = template as NSString
        return expression.matches(in: template, range: NSRange(location: 0, length: text.length)).map { text.substring(with: $0.range(at: 1)) }
    }
}
