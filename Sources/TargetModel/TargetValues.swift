import Foundation

/// What a target's case carries, read with `Mirror` — no code of the app's needed: a route's name
/// by case (without the module names `String(describing:)` puts before the app's types), and the
/// path segments that come from the case's values, so a shape route is written `/v2/items/{id}`
/// for `item(id: 1)`, and another platform's `/v2/items/7` reaches it.
public enum TargetValues {
    /// `placeOrder(NewOrder(itemID: 1, quantity: 2))` for what `String(describing:)` prints as
    /// `placeOrder(stubd_targets.NewOrder(itemID: 1, quantity: 2))`: the module and enclosing
    /// types before a type name dropped, quoted text untouched.
    public static func name(of target: some TargetType) -> String {
        unqualified(String(describing: target))
    }

    /// `text` without `Module.` (and `Enclosing.`) before capitalised type names, outside quoted strings.
    static func unqualified(_ text: String) -> String {
        let characters = Array(text)
        func isIdentifier(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" }
        var out = ""
        var index = 0
        var dropped = -1
        while index < characters.count {
            let character = characters[index]
            if character == "\"" {
                // A quoted value, copied whole (escapes included).
                var end = index + 1
                while end < characters.count, characters[end] != "\"" { end += characters[end] == "\\" ? 2 : 1 }
                let stop = min(end + 1, characters.count)
                out.append(contentsOf: characters[index..<stop])
                index = stop
                continue
            }
            if character.isLetter || character == "_", index == 0 || dropped == index || !(isIdentifier(characters[index - 1]) || characters[index - 1] == ".") {
                var end = index
                while end < characters.count, isIdentifier(characters[end]) { end += 1 }
                if end + 1 < characters.count, characters[end] == ".", characters[end + 1].isUppercase {
                    index = end + 1  // `stubd_targets.` (or an enclosing type's `ShopTests.`) before `NewOrder`: dropped
                    dropped = index
                    continue
                }
                out.append(contentsOf: characters[index..<end])
                index = end
                continue
            }
            out.append(character)
            index += 1
        }
        return out
    }

    /// The case's values as `(label, text)`: a labelled tuple's members (`id`, `query`), the
    /// stored properties of a struct it carries (one level), an unlabelled member as `value` and
    /// its position. Only values whose text can stand in a path (numbers, strings, UUIDs).
    static func values(of target: some TargetType) -> [(label: String, text: String)] {
        guard let payload = Mirror(reflecting: target).children.first else { return [] }
        let caseName = payload.label ?? "value"
        var found: [(label: String, text: String)] = []
        func add(_ label: String?, _ value: Any, depth: Int) {
            switch value {
            case let text as String: found.append((name(label, caseName, found.count), text))
            case let number as any BinaryInteger: found.append((name(label, caseName, found.count), "\(number)"))
            case let uuid as UUID: found.append((name(label, caseName, found.count), uuid.uuidString))
            default:
                guard depth < 2 else { return }
                for child in Mirror(reflecting: value).children { add(child.label, child.value, depth: depth + 1) }
            }
        }
        add(nil, payload.value, depth: 0)
        return found
    }

    private static func name(_ label: String?, _ caseName: String, _ index: Int) -> String {
        guard let label, !label.hasPrefix("."), !label.isEmpty else { return index == 0 ? caseName : "\(caseName)\(index + 1)" }
        return label
    }

    /// `path` with each segment after the base URL's that equals exactly one of the case's values
    /// (and no other segment) written as that value's `{label}`; nil when none does.
    public static func pathTemplate(for target: some TargetType, path: PathPattern) -> PathPattern? {
        guard case .literal(let literal) = path else { return nil }
        let values = values(of: target)
        guard !values.isEmpty else { return nil }
        let base = PathSegments(raw: URLComponents(url: target.baseURL, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? "").segments.count
        var segments = literal.wireForm.split(separator: "/").map(String.init)
        guard segments.count == literal.segments.count else { return nil }
        var used = Set<String>()
        var changed = false
        for index in literal.segments.indices where index >= base {
            let segment = literal.segments[index]
            let matching = values.filter { $0.text == segment }
            guard matching.count == 1, let value = matching.first, literal.segments.filter({ $0 == segment }).count == 1,
                  value.label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), used.insert(value.label).inserted else { continue }
            segments[index] = "{\(value.label)}"
            changed = true
        }
        guard changed, case .success(let template) = PathTemplate.parse("/" + segments.joined(separator: "/") + (literal.trailingSlash ? "/" : "")) else {
            return nil
        }
        return .template(template)
    }
}
