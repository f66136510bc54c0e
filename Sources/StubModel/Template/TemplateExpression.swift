/// What a `{{…}}` or a block's argument computes: a value of the request (`TemplateValue`), a
/// literal, a variable of the block it is in (`this`, `@index`, an `#each` item's field, an
/// `#assign`ed name), or a helper applied to expressions (`eq`, `upper`, `math`, a subexpression
/// in parentheses). Evaluated to a JSON value, so lists from `jsonPath` can be looped over and
/// numbers compared as numbers.
public indirect enum TemplateExpression: Sendable, Hashable {
    /// A request, route or clock value (`request.query.id`, `now`, `jsonPath request.body '$.a'`).
    case value(TemplateValue)
    /// `'text'`, `"text"`, `42`, `true`, `null`.
    case literal(JSONValue)
    /// A name resolved when rendering, in the blocks around it.
    case variable(TemplateVariable)
    /// A helper applied to its positional arguments and named options.
    case helper(TemplateHelper, [TemplateExpression], [TemplateOption])
}

/// A named option of a helper (`format='yyyy'`).
public struct TemplateOption: Sendable, Hashable {
    /// The name.
    public let name: String
    /// Its value.
    public let value: TemplateExpression

    /// An option.
    public init(_ name: String, _ value: TemplateExpression) {
        self.name = name
        self.value = value
    }
}

/// A name read from the blocks around it: `this`, `this.name`, `name.first`, `@index`, `../x`.
public struct TemplateVariable: Sendable, Hashable {
    /// How many blocks out (`../`).
    public let up: Int
    /// The path: empty for `this`; `["@index"]`; `["item", "name"]`.
    public let path: [String]

    /// A variable.
    public init(up: Int, path: [String]) {
        self.up = up
        self.path = path
    }
}

/// A block: `{{#name arguments as |parameters|}}body{{else}}inverse{{/name}}`.
public struct TemplateBlock: Sendable, Hashable {
    /// The block helper.
    public let helper: TemplateBlockHelper
    /// Its arguments.
    public let arguments: [TemplateExpression]
    /// Its named options.
    public let options: [TemplateOption]
    /// Block parameters (`as |item index|`).
    public let parameters: [String]
    /// What it renders when it applies (each item, for `#each`).
    public let body: [TemplateText.Part]
    /// What it renders otherwise (`{{else}}`).
    public let inverse: [TemplateText.Part]
}

/// The block helpers: Handlebars' built-in ones, WireMock's `#assign`, and the conditions used as
/// blocks (`{{#eq a b}}…{{else}}…{{/eq}}`).
public enum TemplateBlockHelper: Sendable, Hashable {
    case `if`
    case unless
    case each
    case with
    case assign
    /// A condition helper as a block: the body when it holds, the inverse otherwise.
    case condition(TemplateHelper)
}
