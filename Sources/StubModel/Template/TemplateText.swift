import Foundation

/// A string with `{{ … }}` substitutions, parsed once when fixtures are read into a tree: the
/// response templating language, WireMock's Handlebars as real suites write it — values from the
/// request, dates, ids; helpers (`eq`, `upper`, `math`, `jsonPath`…); blocks (`#if`, `#unless`,
/// `#each`, `#with`, `#assign`, conditions as blocks) — with no partials and no scripting, every
/// loop bounded when rendered. Text outside braces is kept as it is; `\{{` writes a literal `{{`.
public struct TemplateText: Sendable, Hashable {
    /// Literal text, substitutions and blocks, in order.
    public indirect enum Part: Sendable, Hashable {
        case literal(String)
        /// A plain substitution written as it is (stubd's dialect; the fast path).
        case value(TemplateValue)
        /// A helper, variable or value, HTML-escaped when `escaped` (WireMock's `{{…}}`).
        case expression(TemplateExpression, escaped: Bool)
        /// A block helper with its body.
        case block(TemplateBlock)
    }

    /// The parts.
    public let parts: [Part]
    /// The text as written.
    public let source: String

    /// Whether the text has no substitution at all (then it is served as it is).
    public var isConstant: Bool { !parts.contains { if case .literal = $0 { false } else { true } } }

    /// Whether `text` contains a substitution to parse (`{{`).
    public static func mayBeTemplate(_ text: String) -> Bool { text.contains("{{") }

    /// Bare names WireMock's dialect renders empty because nothing defines them (`currentYear`).
    public private(set) var emptyNames: [String] = []

    /// Parses `text`; a problem names the 1-based column and what to write instead.
    public static func parse(_ text: String, dialect: TemplateDialect = .stubd) -> Result<TemplateText, TemplateProblem> {
        var known: Set<String> = []
        return parse(text, dialect: dialect, known: &known)
    }

    /// Parses `text` knowing the names `known` holds were assigned before it (an earlier string of
    /// the same JSON body, rendered before it); adds the names it assigns.
    public static func parse(_ text: String, dialect: TemplateDialect, known: inout Set<String>) -> Result<TemplateText, TemplateProblem> {
        var parser = TemplateParser(text: text, dialect: dialect, known: known)
        switch parser.parse() {
        case .success(let parts):
            known.formUnion(parser.assignedNames)
            var template = TemplateText(parts: parts, source: text)
            template.emptyNames = parser.emptyNames
            return .success(template)
        case .failure(let problem): return .failure(problem)
        }
    }

    /// A tag's words: split at spaces outside quotes and parentheses (a subexpression is one word).
    public static func words(_ text: String) -> [String] { TemplateParser.words(text) }

    /// A template of already-made parts.
    public init(parts: [Part], source: String) {
        self.parts = parts
        self.source = source
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
