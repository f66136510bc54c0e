/// A GraphQL document read far enough to know its operations — kind, name, variables and the
/// fields each selects, nested — without a GraphQL engine: a lexer of the language's tokens
/// (names, punctuators, numbers, strings and block strings, comments) and a reader of definitions.
/// Enough to name the operation a request runs and to sketch an answer shaped by its selection set.
public struct GraphQLDocument: Sendable, Hashable {
    /// `query`, `mutation` or `subscription`.
    public enum OperationKind: String, Sendable, Hashable {
        case query, mutation, subscription
    }

    /// One field a selection set asks for: its response name (the alias, else the name) and what
    /// it selects in turn (empty for a leaf). Fragment spreads are followed when the fragment is
    /// in the document.
    public struct Field: Sendable, Hashable {
        /// The name it has in the answer.
        public let responseName: String
        /// Its fields, for an object.
        public let selections: [Field]
    }

    /// One operation.
    public struct Operation: Sendable, Hashable {
        /// Query, mutation or subscription.
        public let kind: OperationKind
        /// Nil for an anonymous operation (`{ viewer { id } }`).
        public let name: String?
        /// Its variables' names, without `$`.
        public let variables: [String]
        /// What it selects.
        public let selections: [Field]
    }

    /// The operations, in document order.
    public let operations: [Operation]
    /// Fragment names.
    public let fragments: [String]
    /// Fragments its operations spread that neither it nor the fragments it was read with define
    /// (their fields are missing from the operations' selections).
    public var unknownFragments: [String] = []

    /// Why a document does not read: where and what was expected.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// 1-based line and column.
        public let line: Int
        /// The column (1-based) where the problem is.
        public let column: Int
        /// What is wrong there.
        public let message: String
        /// `line L, column C: message`, as errors name a place in a file.
        public var description: String { "line \(line), column \(column): \(message)" }
    }

    /// Selection sets (and lists and objects in arguments) nest at most this deep, and a fragment
    /// spread inside fragments at most this many hops: deeper is refused, never recursed into (a
    /// 125 KB body nested 25,000 deep overflowed the stack).
    public static let maxDepth = 128
    /// A document expands to at most this many fields once fragments are followed: fragments that
    /// spread each other twice over double at every level, so the expansion, not the text, is
    /// bounded — low enough that expanding it stays well under 100 ms of a loop.
    public static let maxFields = 10_000

    /// Reads `text`, in time linear in its length and in the fields it expands to. `fragments`:
    /// fragments defined in the app's other documents, which its spreads may name (its own win).
    public static func parse(_ text: String, fragments: GraphQLFragments = GraphQLFragments()) -> Result<GraphQLDocument, Problem> {
        var lexer = GraphQLLexer(text)
        let tokens: [GraphQLLexer.Token]
        switch lexer.tokens() {
        case .success(let found): tokens = found
        case .failure(let problem): return .failure(problem)
        }
        var reader = GraphQLReader(tokens: tokens, fragments: fragments.bodies)
        return reader.document()
    }

    /// The operation a request runs: the one named `name`, else the only one.
    public func operation(named name: String?) -> Operation? {
        if let name { return operations.first { $0.name == name } }
        return operations.count == 1 ? operations[0] : nil
    }
}

/// GraphQL's tokens (the spec's lexical grammar, §2.1): ignored tokens skipped (white space,
/// commas, comments, a byte-order mark), strings and block strings kept as one token.
struct GraphQLLexer {
    enum Kind: Equatable { case name, punctuator, number, string }

    struct Token: Equatable {
        let kind: Kind
        let text: String
        let line: Int
        let column: Int
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    private func problem(_ message: String) -> GraphQLDocument.Problem {
        GraphQLDocument.Problem(line: line, column: index - lineStart + 1, message: message)
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func newline() {
        line += 1
        lineStart = index
    }

    mutating func tokens() -> Result<[Token], GraphQLDocument.Problem> {
        var found: [Token] = []
        while let scalar = peek() {
            switch scalar {
            case " ", "\t", ",", "\u{FEFF}":
                index += 1
            case "\n":
                index += 1
                newline()
            case "\r":
                index += 1
                if peek() == "\n" { index += 1 }
                newline()
            case "#":
                while let next = peek(), next != "\n", next != "\r" { index += 1 }
            case "!", "$", "&", "(", ")", ":", "=", "@", "[", "]", "{", "|", "}":
                found.append(Token(kind: .punctuator, text: String(scalar), line: line, column: index - lineStart + 1))
                index += 1
            case ".":
                guard peek(1) == ".", peek(2) == "." else { return .failure(problem("expected ... (a spread)")) }
                found.append(Token(kind: .punctuator, text: "...", line: line, column: index - lineStart + 1))
                index += 3
            case "\"":
                let column = index - lineStart + 1, startLine = line
                if peek(1) == "\"", peek(2) == "\"" {
                    index += 3
                    var text = ""
                    while true {
                        guard let next = peek() else { return .failure(problem("a block string \"\"\" is never closed")) }
                        if next == "\"", peek(1) == "\"", peek(2) == "\"" { index += 3; break }
                        if next == "\\", peek(1) == "\"", peek(2) == "\"", peek(3) == "\"" { text += "\"\"\""; index += 4; continue }
                        if next == "\n" { index += 1; newline(); text += "\n"; continue }
                        text.unicodeScalars.append(next)
                        index += 1
                    }
                    found.append(Token(kind: .string, text: text, line: startLine, column: column))
                } else {
                    index += 1
                    var text = ""
                    while true {
                        guard let next = peek(), next != "\n", next != "\r" else { return .failure(problem("a string is never closed")) }
                        index += 1
                        if next == "\"" { break }
                        if next == "\\" {
                            guard let escaped = peek() else { return .failure(problem("a string is never closed")) }
                            index += 1
                            switch escaped {
                            case "n": text += "\n"
                            case "t": text += "\t"
                            case "r": text += "\r"
                            case "b": text += "\u{8}"
                            case "f": text += "\u{C}"
                            case "u":
                                let hex = (0..<4).compactMap { peek($0) }.map(Character.init)
                                guard hex.count == 4, let value = UInt32(String(hex), radix: 16), let unicode = Unicode.Scalar(value) else {
                                    return .failure(problem("\\u needs four hexadecimal digits"))
                                }
                                index += 4
                                text.unicodeScalars.append(unicode)
                            default: text.unicodeScalars.append(escaped)
                            }
                            continue
                        }
                        text.unicodeScalars.append(next)
                    }
                    found.append(Token(kind: .string, text: text, line: startLine, column: column))
                }
            case "-", "0"..."9":
                let column = index - lineStart + 1
                var text = ""
                while let next = peek(), next == "-" || next == "+" || next == "." || next == "e" || next == "E" || ("0"..."9").contains(next) {
                    text.unicodeScalars.append(next)
                    index += 1
                }
                found.append(Token(kind: .number, text: text, line: line, column: column))
            case "_", "a"..."z", "A"..."Z":
                let column = index - lineStart + 1
                var text = ""
                while let next = peek(), next == "_" || ("a"..."z").contains(next) || ("A"..."Z").contains(next) || ("0"..."9").contains(next) {
                    text.unicodeScalars.append(next)
                    index += 1
                }
                found.append(Token(kind: .name, text: text, line: line, column: column))
            default:
                return .failure(problem("unexpected character \"\(scalar)\""))
            }
        }
        return .success(found)
    }
}

/// The fragments an app's documents define, gathered once for an import of many files: Apollo
/// apps keep fragments in files of their own and spread them in others, so each document is read
/// with the others' fragments (`GraphQLDocument.parse(_:fragments:)`).
public struct GraphQLFragments: Sendable {
    var bodies: [String: [GraphQLReader.RawSelection]] = [:]
    /// Where each fragment was defined (the first definition of a name is kept).
    public private(set) var sources: [String: String] = [:]

    /// None.
    public init() {}

    /// Adds the fragments `text` (from `source`) defines; a text that does not read adds nothing.
    public mutating func add(_ text: String, source: String) {
        var lexer = GraphQLLexer(text)
        guard case .success(let tokens) = lexer.tokens() else { return }
        var reader = GraphQLReader(tokens: tokens)
        guard case .success = reader.document() else { return }
        for (name, body) in reader.fragmentBodies where bodies[name] == nil {
            bodies[name] = body
            sources[name] = source
        }
    }
}

/// Definitions from tokens: operations (named, anonymous, shorthand `{…}`), fragments; type
/// system definitions are skipped whole (a schema file is not an operations file, but may sit in
/// one folder with them).
struct GraphQLReader {
    let tokens: [GraphQLLexer.Token]
    private var index = 0
    /// Fragment bodies by name, for following spreads once the document is read (the app's other
    /// documents' first, then this one's).
    private(set) var fragmentBodies: [String: [RawSelection]]
    /// Selection sets open now.
    private var depth = 0

    init(tokens: [GraphQLLexer.Token], fragments: [String: [RawSelection]] = [:]) {
        self.tokens = tokens
        self.fragmentBodies = fragments
    }

    /// A selection before fragments are followed.
    indirect enum RawSelection: Sendable {
        case field(String, [RawSelection])
        case spread(String)
        case inline([RawSelection])
    }

    private func problem(_ message: String) -> GraphQLDocument.Problem {
        let token = index < tokens.count ? tokens[index] : tokens.last
        return GraphQLDocument.Problem(line: token?.line ?? 1, column: token?.column ?? 1, message: message)
    }

    private func peek(_ text: String) -> Bool { index < tokens.count && tokens[index].text == text && tokens[index].kind != .string }

    private mutating func take(_ text: String) -> Bool {
        guard peek(text) else { return false }
        index += 1
        return true
    }

    private mutating func name() -> String? {
        guard index < tokens.count, tokens[index].kind == .name else { return nil }
        index += 1
        return tokens[index - 1].text
    }

    mutating func document() -> Result<GraphQLDocument, GraphQLDocument.Problem> {
        var raw: [(GraphQLDocument.OperationKind, String?, [String], [RawSelection])] = []
        var fragments: [String] = []
        guard !tokens.isEmpty else { return .failure(GraphQLDocument.Problem(line: 1, column: 1, message: "an empty document; write an operation such as query Profile { viewer { id } }")) }
        while index < tokens.count {
            if peek("{") {
                switch selectionSet() {
                case .success(let selections): raw.append((.query, nil, [], selections))
                case .failure(let problem): return .failure(problem)
                }
                continue
            }
            guard let keyword = name() else { return .failure(problem("expected query, mutation, subscription, fragment or {")) }
            switch keyword {
            case "query", "mutation", "subscription":
                let kind = GraphQLDocument.OperationKind(rawValue: keyword)!
                let operationName = name()
                var variables: [String] = []
                if take("(") {
                    while !take(")") {
                        guard take("$"), let variable = name() else { return .failure(problem("expected $name in the variable definitions")) }
                        variables.append(variable)
                        guard take(":") else { return .failure(problem("expected : and a type after $\(variable)")) }
                        if case .failure(let problem) = skipValueOrType(until: [")", "$"]) { return .failure(problem) }
                        guard index < tokens.count else { return .failure(problem("the variable definitions are never closed")) }
                    }
                }
                if case .failure(let problem) = skipDirectives() { return .failure(problem) }
                switch selectionSet() {
                case .success(let selections): raw.append((kind, operationName, variables, selections))
                case .failure(let problem): return .failure(problem)
                }
            case "fragment":
                guard let fragmentName = name(), take("on"), name() != nil else { return .failure(problem("expected fragment Name on Type")) }
                if case .failure(let problem) = skipDirectives() { return .failure(problem) }
                switch selectionSet() {
                case .success(let selections):
                    fragments.append(fragmentName)
                    fragmentBodies[fragmentName] = selections
                case .failure(let problem): return .failure(problem)
                }
            case "schema", "scalar", "type", "interface", "union", "enum", "input", "directive", "extend":
                // Type system definitions: skipped to the end of their braces (or the line's tokens).
                while index < tokens.count, !peek("{") {
                    if let next = tokens.dropFirst(index).first, next.kind == .name,
                       ["query", "mutation", "subscription", "fragment", "type", "schema", "scalar", "interface", "union", "enum", "input", "directive", "extend"].contains(next.text),
                       keyword != "directive" || next.text != "on" {
                        break
                    }
                    index += 1
                }
                if peek("{") { if case .failure(let problem) = skipBraces() { return .failure(problem) } }
            default:
                return .failure(problem("\"\(keyword)\" does not start a definition; expected query, mutation, subscription or fragment"))
            }
        }
        var expansion = Expansion(fragmentBodies: fragmentBodies)
        var operations: [GraphQLDocument.Operation] = []
        for (kind, name, variables, selections) in raw {
            switch expansion.fields([(selections, [])], depth: 0) {
            case .success(let fields): operations.append(GraphQLDocument.Operation(kind: kind, name: name, variables: variables, selections: fields))
            case .failure(let bound): return .failure(GraphQLDocument.Problem(line: 1, column: 1, message: bound.message))
            }
        }
        var document = GraphQLDocument(operations: operations, fragments: fragments)
        document.unknownFragments = expansion.unknown
        return .success(document)
    }

    /// Fragments followed and fields of one response name merged (as GraphQL's field merging
    /// does, at every depth), in one pass over what the document expands to: each field occurrence
    /// is counted against `GraphQLDocument.maxFields` as it is reached, and fragment hops and
    /// field nesting together against `maxDepth`.
    private struct Expansion {
        let fragmentBodies: [String: [RawSelection]]
        var produced = 0
        /// Spreads of fragments nothing defines, in the order met.
        var unknown: [String] = []

        /// A bound the expansion passed, in words.
        struct Bound: Error { let message: String }

        /// Selection sets written for one place, each with the fragments it was reached through
        /// (a fragment that spreads itself, directly or not, is not followed again).
        typealias Sets = [(selections: [RawSelection], seen: Set<String>)]

        /// The merged fields of `sets`; a message when a bound is passed.
        mutating func fields(_ sets: Sets, depth: Int) -> Result<[GraphQLDocument.Field], Bound> {
            guard depth <= GraphQLDocument.maxDepth else {
                return .failure(Bound(message: "fields and fragment spreads nested deeper than \(GraphQLDocument.maxDepth) levels"))
            }
            // Response names in first-seen order, each with every selection set written for it.
            var order: [String] = []
            var children: [String: Sets] = [:]
            for set in sets {
                if let message = collect(set.selections, seen: set.seen, hops: 0, depth: depth, order: &order, children: &children) {
                    return .failure(Bound(message: message))
                }
            }
            var fields: [GraphQLDocument.Field] = []
            fields.reserveCapacity(order.count)
            for name in order {
                switch self.fields(children[name]!, depth: depth + 1) {
                case .success(let inner): fields.append(GraphQLDocument.Field(responseName: name, selections: inner))
                case .failure(let message): return .failure(message)
                }
            }
            return .success(fields)
        }

        /// Adds the fields `selections` puts at this level — a spread's and an inline fragment's
        /// in the place they stand — to `order` and `children`; a message when a bound is passed.
        /// Recursion is bounded: inline fragments by the reader's depth, spreads by `hops`.
        private mutating func collect(_ selections: [RawSelection], seen: Set<String>, hops: Int, depth: Int,
                                      order: inout [String], children: inout [String: Sets]) -> String? {
            for selection in selections {
                switch selection {
                case .field(let name, let inner):
                    produced += 1
                    guard produced <= GraphQLDocument.maxFields else {
                        return "the document expands to more than \(GraphQLDocument.maxFields) fields once fragments are followed"
                    }
                    if children[name] == nil { order.append(name); children[name] = [] }
                    if !inner.isEmpty { children[name]!.append((inner, seen)) }
                case .inline(let inner):
                    if let message = collect(inner, seen: seen, hops: hops, depth: depth, order: &order, children: &children) { return message }
                case .spread(let fragment):
                    guard let body = fragmentBodies[fragment] else {
                        if !unknown.contains(fragment) { unknown.append(fragment) }
                        continue
                    }
                    guard !seen.contains(fragment) else { continue }
                    guard hops + depth < GraphQLDocument.maxDepth else {
                        return "fragments spread inside fragments deeper than \(GraphQLDocument.maxDepth) levels"
                    }
                    if let message = collect(body, seen: seen.union([fragment]), hops: hops + 1, depth: depth, order: &order, children: &children) {
                        return message
                    }
                }
            }
            return nil
        }
    }

    private mutating func selectionSet() -> Result<[RawSelection], GraphQLDocument.Problem> {
        guard take("{") else { return .failure(problem("expected { and a selection set")) }
        depth += 1
        defer { depth -= 1 }
        guard depth <= GraphQLDocument.maxDepth else {
            return .failure(problem("selection sets nested deeper than \(GraphQLDocument.maxDepth) levels"))
        }
        var selections: [RawSelection] = []
        while !take("}") {
            guard index < tokens.count else { return .failure(problem("a selection set is never closed; expected }")) }
            if take("...") {
                if peek("on") || peek("{") || peek("@") {
                    if take("on") { _ = name() }
                    if case .failure(let problem) = skipDirectives() { return .failure(problem) }
                    switch selectionSet() {
                    case .success(let inner): selections.append(.inline(inner))
                    case .failure(let problem): return .failure(problem)
                    }
                } else {
                    guard let fragment = name() else { return .failure(problem("expected a fragment name after ...")) }
                    if case .failure(let problem) = skipDirectives() { return .failure(problem) }
                    selections.append(.spread(fragment))
                }
                continue
            }
            guard let responseName = name() else { return .failure(problem("expected a field name")) }
            if take(":") {
                guard name() != nil else { return .failure(problem("expected the field's name after its alias \(responseName):")) }
            }
            if peek("(") { if case .failure(let problem) = skipParentheses() { return .failure(problem) } }
            if case .failure(let problem) = skipDirectives() { return .failure(problem) }
            var inner: [RawSelection] = []
            if peek("{") {
                switch selectionSet() {
                case .success(let nested): inner = nested
                case .failure(let problem): return .failure(problem)
                }
            }
            selections.append(.field(responseName, inner))
        }
        return .success(selections)
    }

    private mutating func skipDirectives() -> Result<Void, GraphQLDocument.Problem> {
        while take("@") {
            guard name() != nil else { return .failure(problem("expected a directive name after @")) }
            if peek("(") { if case .failure(let problem) = skipParentheses() { return .failure(problem) } }
        }
        return .success(())
    }

    private mutating func skipParentheses() -> Result<Void, GraphQLDocument.Problem> { skipPair("(", ")") }
    private mutating func skipBraces() -> Result<Void, GraphQLDocument.Problem> { skipPair("{", "}") }

    private mutating func skipPair(_ open: String, _ close: String) -> Result<Void, GraphQLDocument.Problem> {
        var depth = 0
        repeat {
            guard index < tokens.count else { return .failure(problem("\(open) is never closed; expected \(close)")) }
            if tokens[index].kind == .punctuator {
                if tokens[index].text == open { depth += 1 } else if tokens[index].text == close { depth -= 1 }
            }
            index += 1
        } while depth > 0
        return .success(())
    }

    /// A type and an optional default value, up to one of `stops` at this depth.
    private mutating func skipValueOrType(until stops: Set<String>) -> Result<Void, GraphQLDocument.Problem> {
        var depth = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.kind == .punctuator {
                if depth == 0, stops.contains(token.text) { return .success(()) }
                if ["(", "[", "{"].contains(token.text) { depth += 1 }
                if [")", "]", "}"].contains(token.text) { depth -= 1 }
                if depth < 0 { return .success(()) }
            }
            index += 1
        }
        return .success(())
    }
}
