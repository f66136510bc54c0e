import Foundation

/// A string with `{{ … }}` substitutions, parsed once when fixtures are read: the response
/// templating language (a small, WireMock-compatible subset of Handlebars — values from the
/// request, dates, ids — with no loops, no partials and no scripting). Text outside braces is
/// kept as it is; `\{{` writes a literal `{{`.
public struct TemplateText: Sendable, Hashable {
    /// Literal text and substitutions, in order.
    public enum Part: Sendable, Hashable {
        case literal(String)
        case value(TemplateValue)
    }

    /// The parts.
    public let parts: [Part]
    /// The text as written.
    public let source: String

    /// Whether the text has no substitution at all (then it is served as it is).
    public var isConstant: Bool { !parts.contains { if case .value = $0 { true } else { false } } }

    /// Whether `text` contains a substitution to parse (`{{`).
    public static func mayBeTemplate(_ text: String) -> Bool { text.contains("{{") }

    /// Parses `text`; a problem names the 1-based column and what to write instead.
    public static func parse(_ text: String) -> Result<TemplateText, TemplateProblem> {
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("\\{{") {
                literal += "{{"
                index = text.index(index, offsetBy: 3)
                continue
            }
            guard text[index...].hasPrefix("{{") else {
                literal.append(text[index])
                index = text.index(after: index)
                continue
            }
            let column = text.distance(from: text.startIndex, to: index) + 1
            guard let close = text[index...].range(of: "}}") else {
                return .failure(TemplateProblem(column: column, message: "{{ without }}; close it, or write \\{{ for literal braces"))
            }
            let inner = String(text[text.index(index, offsetBy: 2)..<close.lowerBound])
            switch TemplateValue.parse(inner) {
            case .success(let value):
                if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
                parts.append(.value(value))
            case .failure(let message):
                return .failure(TemplateProblem(column: column, message: message.text))
            }
            index = close.upperBound
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return .success(TemplateText(parts: parts, source: text))
    }
}

/// Why a template does not parse: where and what to write instead.
public struct TemplateProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based column of the `{{` that opens the bad substitution.
    public let column: Int
    /// What is wrong and what is supported.
    public let message: String

    /// `template column 3: …`.
    public var description: String { "template column \(column): \(message)" }
}
