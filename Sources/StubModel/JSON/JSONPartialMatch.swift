
/// JSON compared by meaning with WireMock's relaxations: objects may carry members the pattern
/// does not name and arrays may be longer (`ignoreExtraElements`, at every depth), arrays may
/// come in any order
/// (`ignoreArrayOrder`; each pattern element pairs with a distinct request element).
package enum JSONPartialMatch {
    package static func matches(expected: JSONValue, got: JSONValue, options: JSONMatchOptions) -> Bool {
        switch (expected, got) {
        case (.object(let want), .object(let have)):
            if !options.ignoreExtraElements && want.count != have.count { return false }
            for member in want {
                guard let value = have.first(where: { $0.key == member.key })?.value,
                      matches(expected: member.value, got: value, options: options) else { return false }
            }
            return true
        case (.array(let want), .array(let have)):
            // Extra elements: the request's array may be longer, never shorter.
            guard options.ignoreExtraElements ? want.count <= have.count : want.count == have.count else { return false }
            if !options.ignoreArrayOrder {
                return zip(want, have).allSatisfy { matches(expected: $0, got: $1, options: options) }
            }
            var remaining = have
            for element in want {
                guard let index = remaining.firstIndex(where: { matches(expected: element, got: $0, options: options) }) else { return false }
                remaining.remove(at: index)
            }
            return true
        default:
            return expected == got
        }
    }
}
