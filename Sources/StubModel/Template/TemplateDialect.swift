/// Which Handlebars a template is written in. The language is the same; what differs is what a
/// `{{…}}` writes: stubd's own templates write values as they are (a JSON string stays valid JSON
/// by the JSON body's own escaping), WireMock's — as its suites were written against — escape HTML
/// (`&`, `<`, `>`, `"`, `'`, `` ` ``, `=`) unless the value is in triple braces `{{{…}}}`.
public enum TemplateDialect: String, Sendable, Hashable {
    /// `"template": true`: values as they are.
    case stubd
    /// `"template": "wiremock"` (what `stubd import wiremock` and `serve --wiremock` write):
    /// `{{…}}` HTML-escaped, `{{{…}}}` raw, as WireMock's Handlebars does.
    case wiremock

    /// Whether a double-brace substitution escapes HTML.
    public var escapesHTML: Bool { self == .wiremock }
}
