import Foundation

/// Reads a template's text into `TemplateText.Part`s: tags are found first (double, triple,
/// block open/close, `else`, comments; `~` trims the whitespace beside a tag), then blocks are
/// nested and each tag's inside is read as an expression. Names are checked here: outside a block
/// that changes the context (`#each`, `#with`), a name that is neither a request value, a helper,
/// an `#assign`ed name nor a block parameter is a problem naming what is supported.
struct TemplateParser {
    let text: String
    let dialect: TemplateDialect
    /// Blocks may nest this deep.
    static let maximumDepth = 32

    private enum TagKind { case value, raw, open, close, otherwise }

    private struct Tag {
        var kind: TagKind
        var inner: String
        var column: Int
    }

    private enum Token {
        case text(String)
        case tag(Tag)
    }

    private var tokens: [Token] = []
    private var position = 0
    /// Names an `#assign` made, and block parameters in scope.
    private var names: Set<String> = []
    /// Names an `#assign` made anywhere so far (or in an earlier value of the same JSON body): they
    /// stay known after the block that made them, as Handlebars keeps them.
    private(set) var assignedNames: Set<String> = []
    /// Bare names neither stubd nor the template knows, in WireMock's dialect: rendered empty, as
    /// WireMock's Handlebars renders a helper or value it lacks (the importer warns naming each).
    private(set) var emptyNames: [String] = []
    /// How many context-changing blocks (`#each`, `#with`) are open: inside one, any name may be a
    /// field of the current item.
    private var contextDepth = 0
    private var depth = 0

    /// `known`: names assigned before this text (an earlier value of the same JSON body).
    init(text: String, dialect: TemplateDialect, known: Set<String> = []) {
        self.text = text
        self.dialect = dialect
        self.names = known
        self.assignedNames = known
    }

    mutating func parse() -> Result<[TemplateText.Part], TemplateProblem> {
        switch tokenize() {
        case .failure(let problem): return .failure(problem)
        case .success(let found): tokens = found
        }
        switch parts(until: nil) {
        case .failure(let problem): return .failure(problem)
        case .success(let (parts, end)):
            if let end { return .failure(TemplateProblem(column: end.column, message: "{{\(end.kind == .close ? "/" : "")\(end.inner)}} closes no open block")) }
            return .success(parts)
        }
    }

    // MARK: Tags

    private func tokenize() -> Result<[Token], TemplateProblem> {
        var found: [Token] = []
        var literal = ""
        var trimNext = false
        let characters = Array(text)
        var index = 0
        func flush(trimEnd: Bool) {
            var piece = literal
            if trimNext { piece = String(piece.drop { $0.isWhitespace }) }
            if trimEnd { while piece.last?.isWhitespace == true { piece.removeLast() } }
            if !piece.isEmpty { found.append(.text(piece)) }
            literal = ""
            trimNext = false
        }
        func starts(_ prefix: String, at offset: Int) -> Bool {
            let p = Array(prefix)
            guard offset + p.count <= characters.count else { return false }
            return Array(characters[offset..<offset + p.count]) == p
        }
        while index < characters.count {
            if starts("\\{{", at: index) {
                literal += "{{"
                index += 3
                continue
            }
            guard starts("{{", at: index) else {
                literal.append(characters[index])
                index += 1
                continue
            }
            let column = index + 1
            let triple = starts("{{{", at: index)
            var start = index + (triple ? 3 : 2)
            let trimBefore = start < characters.count && characters[start] == "~"
            if trimBefore { start += 1 }
            // A comment: {{!-- … --}} or {{! … }}.
            if start < characters.count, characters[start] == "!" {
                let long = starts("!--", at: start)
                let closer = long ? "--}}" : "}}"
                var end = start
                while end < characters.count, !starts(closer, at: end) { end += 1 }
                guard end < characters.count else { return .failure(TemplateProblem(column: column, message: "a comment {{! without its end \(closer)")) }
                flush(trimEnd: trimBefore)
                index = end + closer.count
                continue
            }
            // The tag's end, outside quotes.
            let closer = triple ? "}}}" : "}}"
            var end = start
            var quote: Character?
            while end < characters.count {
                let character = characters[end]
                if let open = quote {
                    if character == open { quote = nil }
                } else if character == "'" || character == "\"" {
                    quote = character
                } else if starts(closer, at: end) || (starts("~" + closer, at: end)) {
                    break
                }
                end += 1
            }
            guard end < characters.count else {
                return .failure(TemplateProblem(column: column, message: "{{ without }}; close it, or write \\{{ for literal braces"))
            }
            let trimAfter = characters[end] == "~"
            var inner = String(characters[start..<end]).trimmingCharacters(in: .whitespaces)
            flush(trimEnd: trimBefore)
            index = end + (trimAfter ? 1 : 0) + closer.count
            trimNext = trimAfter
            var kind: TagKind = triple ? .raw : .value
            if !triple, let first = inner.first {
                if first == "#" { kind = .open; inner.removeFirst() }
                else if first == "/" { kind = .close; inner.removeFirst() }
                else if inner == "else" || inner == "^" || inner.hasPrefix("else ") { kind = .otherwise }
                else if first == ">" {
                    return .failure(TemplateProblem(column: column, message: "partials ({{> name}}) are not supported; write the text in place"))
                }
            }
            found.append(.tag(Tag(kind: kind, inner: inner.trimmingCharacters(in: .whitespaces), column: column)))
        }
        flush(trimEnd: false)
        return .success(found)
    }

    // MARK: Blocks

    /// Parts up to the tag that ends the current block (`{{else}}` or `{{/name}}`), returned with it.
    private mutating func parts(until block: String?) -> Result<([TemplateText.Part], Tag?), TemplateProblem> {
        var parts: [TemplateText.Part] = []
        var literal = ""
        func flush() {
            if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
        }
        while position < tokens.count {
            let token = tokens[position]
            position += 1
            switch token {
            case .text(let piece):
                literal += piece
            case .tag(let tag):
                switch tag.kind {
                case .close, .otherwise:
                    flush()
                    return .success((parts, tag))
                case .value, .raw:
                    switch substitution(tag) {
                    case .success(let part): flush(); parts.append(part)
                    case .failure(let problem): return .failure(problem)
                    }
                case .open:
                    switch self.block(tag) {
                    case .success(let part): flush(); parts.append(part)
                    case .failure(let problem): return .failure(problem)
                    }
                }
            }
        }
        flush()
        if let block { return .failure(TemplateProblem(column: 1, message: "{{#\(block)}} is never closed; end it with {{/\(block)}}")) }
        return .success((parts, nil))
    }

    private mutating func substitution(_ tag: Tag) -> Result<TemplateText.Part, TemplateProblem> {
        let raw = tag.kind == .raw
        // stubd's dialect keeps a plain value on its fast path.
        if dialect == .stubd, case .success(let value) = TemplateValue.parse(tag.inner), !names.contains(tag.inner) {
            return .success(.value(value))
        }
        switch expression(tag.inner, column: tag.column) {
        case .success(.value(let value)) where !dialect.escapesHTML || raw: return .success(.value(value))
        case .success(let expression): return .success(.expression(expression, escaped: dialect.escapesHTML && !raw))
        case .failure(let problem): return .failure(problem)
        }
    }

    private mutating func block(_ tag: Tag) -> Result<TemplateText.Part, TemplateProblem> {
        guard depth < Self.maximumDepth else {
            return .failure(TemplateProblem(column: tag.column, message: "blocks nest deeper than \(Self.maximumDepth); flatten the template"))
        }
        var words = Self.words(tag.inner)
        guard !words.isEmpty else { return .failure(TemplateProblem(column: tag.column, message: "an empty {{#}}; write {{#if …}}, {{#each …}}, …")) }
        let name = words.removeFirst()
        // `as |item index|` block parameters.
        var parameters: [String] = []
        if let alias = words.firstIndex(of: "as"), alias + 1 < words.count, words[alias + 1].hasPrefix("|") {
            let joined = words[(alias + 1)...].joined(separator: " ")
            parameters = joined.trimmingCharacters(in: CharacterSet(charactersIn: "| ")).split(separator: " ").map(String.init)
            words = Array(words[..<alias])
        }
        let helper: TemplateBlockHelper
        switch name {
        case "if": helper = .if
        case "unless": helper = .unless
        case "each": helper = .each
        case "with": helper = .with
        case "assign": helper = .assign
        default:
            guard let condition = TemplateHelper(rawValue: name), condition.isCondition else {
                return .failure(TemplateProblem(column: tag.column, message: "{{#\(name)}} is not a block stubd knows; blocks: #if, #unless, #each, #with, #assign, and the conditions #eq, #neq, #gt, #gte, #lt, #lte, #and, #or, #not, #contains"))
            }
            helper = .condition(condition)
        }
        var arguments: [TemplateExpression] = []
        var options: [TemplateOption] = []
        for word in words {
            if let (key, value) = Self.option(word) {
                switch argument(value, column: tag.column) {
                case .success(let parsed): options.append(TemplateOption(key, parsed))
                case .failure(let problem): return .failure(problem)
                }
            } else {
                switch argument(word, column: tag.column) {
                case .success(let parsed): arguments.append(parsed)
                case .failure(let problem): return .failure(problem)
                }
            }
        }
        let wanted: ClosedRange<Int>
        switch helper {
        case .if, .unless, .each, .with, .assign: wanted = 1...1
        case .condition(let condition): wanted = condition.arity
        }
        guard wanted.contains(arguments.count) else {
            return .failure(TemplateProblem(column: tag.column, message: "{{#\(name)}} takes \(Self.describe(wanted)) argument(s), got \(arguments.count)"))
        }
        let changesContext = helper == .each || helper == .with
        let savedNames = names
        depth += 1
        defer { depth -= 1 }
        // The body sees the block's parameters and, in #each/#with, the item's fields.
        names.formUnion(parameters)
        if changesContext { contextDepth += 1 }
        let bodyResult = parts(until: name)
        names = savedNames.union(assignedNames)
        if changesContext { contextDepth -= 1 }
        guard case .success(let (body, bodyEnd)) = bodyResult else {
            if case .failure(let problem) = bodyResult { return .failure(problem) }
            return .failure(TemplateProblem(column: tag.column, message: "{{#\(name)}} cannot be read"))
        }
        guard var end = bodyEnd else { return .failure(TemplateProblem(column: tag.column, message: "{{#\(name)}} is never closed; end it with {{/\(name)}}")) }
        var inverse: [TemplateText.Part] = []
        if end.kind == .otherwise {
            if end.inner.hasPrefix("else ") {
                // {{else if cond}}: the inverse is one more block, ended by this block's {{/name}}.
                switch chainedBlock(Tag(kind: .open, inner: String(end.inner.dropFirst(5)), column: end.column), closing: name) {
                case .success(let (part, close)): inverse = [part]; end = close
                case .failure(let problem): return .failure(problem)
                }
            } else {
                switch parts(until: name) {
                case .failure(let problem): return .failure(problem)
                case .success(let (otherwise, close)):
                    guard let close, close.kind == .close else {
                        return .failure(TemplateProblem(column: tag.column, message: "{{#\(name)}} has a second {{else}} or is never closed"))
                    }
                    inverse = otherwise
                    end = close
                }
            }
        }
        guard end.kind == .close, end.inner == name else {
            return .failure(TemplateProblem(column: end.column, message: "{{/\(end.inner)}} closes {{#\(name)}}; close blocks in the order they open"))
        }
        if helper == .assign, case .literal(.string(let assigned))? = arguments.first {
            names.insert(assigned)
            assignedNames.insert(assigned)
        } else if helper == .assign {
            return .failure(TemplateProblem(column: tag.column, message: "{{#assign}} takes the variable's name in quotes: {{#assign 'name'}}…{{/assign}}"))
        }
        return .success(.block(TemplateBlock(helper: helper, arguments: arguments, options: options, parameters: parameters, body: body, inverse: inverse)))
    }

    /// `{{else if …}}` up to the enclosing block's `{{/name}}` (which it consumes).
    private mutating func chainedBlock(_ tag: Tag, closing name: String) -> Result<(TemplateText.Part, Tag), TemplateProblem> {
        let words = Self.words(tag.inner)
        guard let chainedName = words.first, words.count > 1 else { return .failure(TemplateProblem(column: tag.column, message: "{{else if}} needs a condition")) }
        guard chainedName == "if" || chainedName == "unless" else {
            return .failure(TemplateProblem(column: tag.column, message: "{{else \(chainedName) …}}: only {{else if …}} and {{else unless …}} chain"))
        }
        return chainedBlockBody(tag, outer: name)
    }

    private mutating func chainedBlockBody(_ tag: Tag, outer: String) -> Result<(TemplateText.Part, Tag), TemplateProblem> {
        var words = Self.words(tag.inner)
        let name = words.removeFirst()
        var arguments: [TemplateExpression] = []
        for word in words {
            switch argument(word, column: tag.column) {
            case .success(let parsed): arguments.append(parsed)
            case .failure(let problem): return .failure(problem)
            }
        }
        guard arguments.count == 1 else { return .failure(TemplateProblem(column: tag.column, message: "{{else \(name)}} takes 1 argument, got \(arguments.count)")) }
        var inverse: [TemplateText.Part] = []
        switch parts(until: outer) {
        case .failure(let problem): return .failure(problem)
        case .success(let (body, bodyEnd)):
            guard var end = bodyEnd else { return .failure(TemplateProblem(column: tag.column, message: "{{#\(outer)}} is never closed; end it with {{/\(outer)}}")) }
            if end.kind == .otherwise {
                if end.inner.hasPrefix("else ") {
                    switch chainedBlock(Tag(kind: .open, inner: String(end.inner.dropFirst(5)), column: end.column), closing: outer) {
                    case .success(let (part, close)): inverse = [part]; end = close
                    case .failure(let problem): return .failure(problem)
                    }
                } else {
                    switch parts(until: outer) {
                    case .failure(let problem): return .failure(problem)
                    case .success(let (otherwise, close)):
                        guard let close else { return .failure(TemplateProblem(column: tag.column, message: "{{#\(outer)}} is never closed")) }
                        inverse = otherwise
                        end = close
                    }
                }
            }
            let helper: TemplateBlockHelper = name == "if" ? .if : .unless
            return .success((.block(TemplateBlock(helper: helper, arguments: arguments, options: [], parameters: [], body: body, inverse: inverse)), end))
        }
    }

    // MARK: Expressions

    /// The inside of a `{{…}}`: a request value, a helper call, a variable or a literal.
    private mutating func expression(_ inner: String, column: Int) -> Result<TemplateExpression, TemplateProblem> {
        let words = Self.words(inner)
        guard let head = words.first else { return .failure(TemplateProblem(column: column, message: "an empty {{}}; write a name such as {{request.path}}")) }
        if words.count == 1 { return argument(head, column: column) }
        if let helper = TemplateHelper(rawValue: head) {
            // `jsonPath request.body '$.x'` and `jsonPath collection.N '$…'` stay request values.
            if helper == .jsonPath, case .success(let value) = TemplateValue.parse(inner) { return .success(.value(value)) }
            return call(helper, Array(words.dropFirst()), column: column)
        }
        if head.hasPrefix("(") { return argument(head, column: column) }
        // `now` with an option taken from a variable or a subexpression (`{{now format=customformat}}`
        // after `{{#assign 'customformat'}}…`): the date helper on now, so the option is evaluated
        // as WireMock evaluates it instead of read as the pattern's literal letters.
        if head == "now", words.dropFirst().contains(where: { Self.option($0).map { isDynamic($0.1) } ?? false }) {
            return call(.date, words, column: column)
        }
        switch TemplateValue.parse(inner) {
        case .success(let value): return .success(.value(value))
        case .failure(let message):
            return .failure(TemplateProblem(column: column, message: message.text + "; helpers: \(TemplateHelper.names)"))
        }
    }

    private mutating func call(_ helper: TemplateHelper, _ words: [String], column: Int) -> Result<TemplateExpression, TemplateProblem> {
        var arguments: [TemplateExpression] = []
        var options: [TemplateOption] = []
        for word in words {
            if let (key, value) = Self.option(word) {
                switch argument(value, column: column) {
                case .success(let parsed): options.append(TemplateOption(key, parsed))
                case .failure(let problem): return .failure(problem)
                }
            } else {
                switch argument(word, column: column) {
                case .success(let parsed): arguments.append(parsed)
                case .failure(let problem): return .failure(problem)
                }
            }
        }
        guard helper.arity.contains(arguments.count) else {
            return .failure(TemplateProblem(column: column, message: "\(helper.rawValue) takes \(Self.describe(helper.arity)) argument(s), got \(arguments.count)"))
        }
        return .success(.helper(helper, arguments, options))
    }

    /// One argument: `(subexpression)`, a literal, a request value, a variable.
    private mutating func argument(_ word: String, column: Int) -> Result<TemplateExpression, TemplateProblem> {
        if word.hasPrefix("("), word.hasSuffix(")") { return expression(String(word.dropFirst().dropLast()), column: column) }
        if let first = word.first, first == "'" || first == "\"", word.count >= 2, word.last == first {
            return .success(.literal(.string(String(word.dropFirst().dropLast()))))
        }
        if let number = Double(word), word.first.map({ $0.isNumber || $0 == "-" }) == true { return .success(.literal(.number(number))) }
        switch word {
        case "true": return .success(.literal(.bool(true)))
        case "false": return .success(.literal(.bool(false)))
        case "null", "undefined": return .success(.literal(.null))
        default: break
        }
        // `../request.path` inside a block: the request is the same at every depth.
        if word.hasPrefix("../") {
            var rest = Substring(word)
            while rest.hasPrefix("../") { rest = rest.dropFirst(3) }
            if rest.hasPrefix("request."), case .success(let value) = TemplateValue.parse(String(rest)) { return .success(.value(value)) }
        }
        if let variable = Self.variable(word), word == "this" || word.hasPrefix("this.") || word.hasPrefix("@") || word.hasPrefix("../")
            || names.contains(variable.path.first ?? "") {
            return .success(.variable(variable))
        }
        if case .success(let value) = TemplateValue.parse(word) { return .success(.value(value)) }
        if contextDepth > 0, let variable = Self.variable(word) { return .success(.variable(variable)) }
        // WireMock renders a bare name it has no helper or value for as nothing (`{{currentYear}}`, a
        // helper a suite registered in Java): so does its dialect here, and the importer says which.
        if dialect == .wiremock, !word.isEmpty, word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }),
           word.first?.isLetter == true {
            if !emptyNames.contains(word) { emptyNames.append(word) }
            return .success(.literal(.null))
        }
        switch TemplateValue.parse(word) {
        case .success(let value): return .success(.value(value))
        case .failure(let message): return .failure(TemplateProblem(column: column, message: message.text + "; helpers: \(TemplateHelper.names)"))
        }
    }

    /// Whether an option's value is computed (a subexpression, an assigned name, a block parameter or
    /// an item's field) rather than written as it is.
    private func isDynamic(_ value: String) -> Bool {
        if value.hasPrefix("(") { return true }
        guard let first = value.first, first != "'", first != "\"", Double(value) == nil, !["true", "false", "null"].contains(value) else { return false }
        let head = String(value.split(separator: ".").first ?? "")
        return names.contains(head) || contextDepth > 0 || head == "this" || head.hasPrefix("@") || value.hasPrefix("../")
    }

    /// `this`, `this.a.b`, `@index`, `../name`, `item.name`, `items.[0]`.
    private static func variable(_ word: String) -> TemplateVariable? {
        var rest = Substring(word)
        var up = 0
        while rest.hasPrefix("../") { up += 1; rest = rest.dropFirst(3) }
        var path = rest.split(separator: ".", omittingEmptySubsequences: true).map { part -> String in
            var text = String(part)
            if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
            return text
        }
        if path.first == "this" { path.removeFirst() }
        guard path.allSatisfy({ !$0.isEmpty && !$0.contains(" ") }) else { return nil }
        return TemplateVariable(up: up, path: path)
    }

    /// `key=value` outside quotes and parentheses.
    private static func option(_ word: String) -> (String, String)? {
        guard let first = word.first, first != "'", first != "\"", first != "(", let equals = word.firstIndex(of: "=") else { return nil }
        let key = String(word[..<equals])
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else { return nil }
        return (key, String(word[word.index(after: equals)...]))
    }

    /// Words split at spaces outside quotes and parentheses (a subexpression is one word).
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var parentheses = 0
        for character in text {
            if let open = quote {
                current.append(character)
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
                current.append(character)
            } else if character == "(" {
                parentheses += 1
                current.append(character)
            } else if character == ")" {
                parentheses -= 1
                current.append(character)
            } else if (character == " " || character == "\t" || character == "\n") && parentheses == 0 {
                if !current.isEmpty { words.append(current); current = "" }
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private static func describe(_ range: ClosedRange<Int>) -> String {
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
    }
}
