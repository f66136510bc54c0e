import StubModel

/// Path templates of one method as a trie over segments, so finding the templates that fit a
/// path costs one step per segment instead of a pass over every template.
struct TemplateTrie: Sendable {
    private struct Node: Sendable {
        var literals: [String: Int] = [:]
        var parameter: Int?
        /// Routes ending here, for paths without and with a trailing slash.
        var routes: [Int] = []
        var routesWithTrailingSlash: [Int] = []
    }

    private var nodes = [Node()]

    var isEmpty: Bool { nodes.count == 1 && nodes[0].routes.isEmpty }

    mutating func insert(_ template: PathTemplate, route: Int) {
        var current = 0
        for segment in template.segments {
            switch segment {
            case .literal(let text):
                if let next = nodes[current].literals[text] {
                    current = next
                } else {
                    nodes.append(Node())
                    nodes[current].literals[text] = nodes.count - 1
                    current = nodes.count - 1
                }
            case .parameter:
                if let next = nodes[current].parameter {
                    current = next
                } else {
                    nodes.append(Node())
                    nodes[current].parameter = nodes.count - 1
                    current = nodes.count - 1
                }
            }
        }
        if template.trailingSlash {
            nodes[current].routesWithTrailingSlash.append(route)
        } else {
            nodes[current].routes.append(route)
        }
    }

    /// Every route whose template fits `path`.
    func candidates(for path: PathSegments) -> [Int] {
        var found: [Int] = []
        collect(node: 0, depth: 0, path: path, into: &found)
        return found
    }

    private func collect(node: Int, depth: Int, path: PathSegments, into found: inout [Int]) {
        if depth == path.segments.count {
            found += path.trailingSlash ? nodes[node].routesWithTrailingSlash : nodes[node].routes
            return
        }
        let segment = path.segments[depth]
        if let next = nodes[node].literals[segment] { collect(node: next, depth: depth + 1, path: path, into: &found) }
        if let next = nodes[node].parameter, !segment.isEmpty { collect(node: next, depth: depth + 1, path: path, into: &found) }
    }
}
