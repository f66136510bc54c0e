import Foundation
/// Finds the Moya targets in an app's API files, reading Swift as text: enough for the way API
/// files are written (an `enum` whose cases are the endpoints, conforming to `TargetType` or to
/// a protocol that refines it, often in an extension), without compiling them or linking a
/// parser. What it cannot see, the generated `main.swift` says how to add by hand.
struct APIScanner {
    /// One target type and its cases.
    struct TargetTypeFound: Equatable {
        var name: String
        /// Cases without associated values: listed as they are.
        var plainCases: [String]
        /// Cases with associated values, as `name(label: Type, …)`: need values from the team.
        var payloadCases: [String]
        /// True for a struct or class conforming: one value needs writing by hand.
        var isEnum: Bool
    }

    /// The target types declared across `sources` (file texts), in order of appearance.
    static func scan(_ sources: [String]) -> [TargetTypeFound] {
        let declarations = sources.flatMap(Self.declarations)
        // Conformances by type or protocol name, from its declaration and every extension.
        var conformances: [String: Set<String>] = [:]
        for declaration in declarations { conformances[declaration.name, default: []].formUnion(declaration.conformances) }
        var targetProtocols: Set<String> = ["TargetType", "Moya.TargetType"]
        var grew = true
        while grew {
            grew = false
            for declaration in declarations where declaration.kind == "protocol" && !targetProtocols.contains(declaration.name) {
                if !conformances[declaration.name, default: []].isDisjoint(with: targetProtocols) {
                    targetProtocols.insert(declaration.name)
                    grew = true
                }
            }
        }
        var found: [TargetTypeFound] = []
        for declaration in declarations where ["enum", "struct", "class"].contains(declaration.kind) {
            guard !conformances[declaration.name, default: []].isDisjoint(with: targetProtocols),
                  !found.contains(where: { $0.name == declaration.name }) else { continue }
            let cases = declaration.kind == "enum" ? Self.cases(in: declaration.body) : []
            found.append(TargetTypeFound(name: declaration.name, plainCases: cases.filter { !$0.contains("(") },
                                         payloadCases: cases.filter { $0.contains("(") }, isEnum: declaration.kind == "enum"))
        }
        return found
    }

    private struct Declaration {
        var kind: String
        var name: String
        var conformances: [String]
        var body: String
    }

    /// `enum`, `struct`, `class`, `protocol` and `extension` headers with their bodies; nested
    /// type declarations are found too.
    private static func declarations(in source: String) -> [Declaration] {
        let text = stripComments(source)
        var result: [Declaration] = []
        let keywords: Set<String> = ["enum", "struct", "class", "protocol", "extension"]
        var index = text.startIndex
        while let word = nextWord(in: text, from: &index) {
            guard keywords.contains(word), let open = text[index...].firstIndex(of: "{") else { continue }
            let header = text[index..<open].trimmingCharacters(in: .whitespacesAndNewlines)
            let name = String(header.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
            guard !name.isEmpty else { continue }
            var conformances: [String] = []
            if let colon = header.firstIndex(of: ":") {
                let list = String(header[header.index(after: colon)...]).components(separatedBy: " where ").first ?? ""
                conformances = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            }
            let close = matchingBrace(in: text, open: open)
            result.append(Declaration(kind: word, name: name, conformances: conformances,
                                      body: String(text[text.index(after: open)..<close])))
            index = text.index(after: open)
        }
        return result
    }

    /// The cases declared directly in an enum body (not in nested types).
    private static func cases(in body: String) -> [String] {
        var cases: [String] = []
        var depth = 0
        var line = ""
        func take(_ line: String) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard depth == 0, trimmed.hasPrefix("case ") || trimmed.hasPrefix("indirect case ") else { return }
            let list = trimmed.drop { $0 != " " }.dropFirst()
            let names = trimmed.hasPrefix("indirect") ? list.drop { $0 != " " }.dropFirst() : list
            cases += splitTopLevel(String(names)).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        for character in body {
            if character == "\n" { take(line); line = ""; continue }
            if character == "{" { depth += 1 }
            if character == "}" { depth -= 1 }
            line.append(character)
        }
        take(line)
        return cases.map { $0.components(separatedBy: "=").first!.trimmingCharacters(in: .whitespaces) }
    }

    /// Splits at commas outside parentheses.
    private static func splitTopLevel(_ text: String) -> [String] {
        var parts: [String] = []
        var depth = 0
        var current = ""
        for character in text {
            if character == "(" || character == "[" || character == "<" { depth += 1 }
            if character == ")" || character == "]" || character == ">" { depth -= 1 }
            if character == "," && depth == 0 { parts.append(current); current = ""; continue }
            current.append(character)
        }
        parts.append(current)
        return parts
    }

    private static func nextWord(in text: String, from index: inout String.Index) -> String? {
        while index < text.endIndex, !(text[index].isLetter || text[index] == "_") {
            if text[index] == "\"" { skipString(in: text, from: &index) } else { index = text.index(after: index) }
        }
        guard index < text.endIndex else { return nil }
        let start = index
        while index < text.endIndex, text[index].isLetter || text[index].isNumber || text[index] == "_" { index = text.index(after: index) }
        return String(text[start..<index])
    }

    private static func skipString(in text: String, from index: inout String.Index) {
        index = text.index(after: index)
        while index < text.endIndex, text[index] != "\"" && text[index] != "\n" {
            if text[index] == "\\" { index = text.index(after: index) }
            if index < text.endIndex { index = text.index(after: index) }
        }
        if index < text.endIndex { index = text.index(after: index) }
    }

    private static func matchingBrace(in text: String, open: String.Index) -> String.Index {
        var depth = 0
        var index = open
        while index < text.endIndex {
            if text[index] == "\"" { skipString(in: text, from: &index); continue }
            if text[index] == "{" { depth += 1 }
            if text[index] == "}" { depth -= 1; if depth == 0 { return index } }
            index = text.index(after: index)
        }
        return text.endIndex
    }

    /// Drops `//` and `/* */` comments (strings kept), so commented-out code is not read.
    static func stripComments(_ source: String) -> String {
        var out = ""
        var index = source.startIndex
        while index < source.endIndex {
            let rest = source[index...]
            if rest.hasPrefix("//") {
                index = rest.firstIndex(of: "\n") ?? source.endIndex
            } else if rest.hasPrefix("/*") {
                index = rest.range(of: "*/").map(\.upperBound) ?? source.endIndex
            } else if source[index] == "\"" {
                let start = index
                skipString(in: source, from: &index)
                out += source[start..<index]
            } else {
                out.append(source[index])
                index = source.index(after: index)
            }
        }
        return out
    }
}
