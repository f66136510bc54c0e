
/// Field-level differences between two JSON values, as `$.user.name: expected "a", got "b"`,
/// so a near miss names the one field that is off instead of printing two whole documents.
package enum JSONDifference {
    package static func between(expected: JSONValue, got: JSONValue, path: String = "$", limit: Int = 5) -> [String] {
        var out: [String] = []
        walk(expected, got, path, &out, limit)
        return out
    }

    private static func walk(_ expected: JSONValue, _ got: JSONValue, _ path: String, _ out: inout [String], _ limit: Int) {
        guard out.count < limit, expected != got else { return }
        switch (expected, got) {
        case let (.object(want), .object(have)):
            let haveMap = Dictionary(have.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            let wantKeys = Set(want.map(\.key))
            for member in want {
                if let value = haveMap[member.key] {
                    walk(member.value, value, "\(path).\(member.key)", &out, limit)
                } else if out.count < limit {
                    out.append("\(path).\(member.key): expected \(member.value), missing")
                }
            }
            for member in have where !wantKeys.contains(member.key) && out.count < limit {
                out.append("\(path).\(member.key): unexpected (\(member.value))")
            }
        case let (.array(want), .array(have)) where want.count == have.count:
            for (index, pair) in zip(want, have).enumerated() { walk(pair.0, pair.1, "\(path)[\(index)]", &out, limit) }
        case let (.array(want), .array(have)):
            // Name the elements: what one side has and the other lacks, in order, each once.
            var unmatched = have
            var missing: [JSONValue] = []
            for element in want {
                if let index = unmatched.firstIndex(of: element) { unmatched.remove(at: index) } else { missing.append(element) }
            }
            let listed = { (values: [JSONValue]) in values.prefix(3).map(\.description).joined(separator: ", ") + (values.count > 3 ? ", …" : "") }
            var parts = ["expected \(want.count) element\(want.count == 1 ? "" : "s"), got \(have.count)"]
            if !missing.isEmpty { parts.append("missing \(listed(missing))") }
            if !unmatched.isEmpty { parts.append("extra \(listed(unmatched))") }
            out.append("\(path): " + parts.joined(separator: "; "))
        default:
            out.append("\(path): expected \(expected), got \(got)")
        }
    }
}
