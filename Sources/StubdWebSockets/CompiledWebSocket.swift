package import StubModel

/// A route's WebSocket script ready to play: with `"template": true`, every text send parsed
/// once, when the route is compiled — parsing a template for each message cost a templated echo
/// more than half its round trips (perf, `make bench`: 34k/s, 2.1× fewer than the same route
/// without the parse).
package final class CompiledWebSocket: Sendable {
    /// The script as the fixture wrote it.
    package let script: WebSocketScript
    private let templates: [String: TemplateText]

    package init(_ script: WebSocketScript) {
        self.script = script
        var templates: [String: TemplateText] = [:]
        if script.template {
            for step in script.onOpen + script.replies.flatMap(\.steps) {
                guard case .send(.text(let text), _) = step.action, templates[text] == nil,
                      case .success(let template) = TemplateText.parse(text) else { continue }
                templates[text] = template
            }
        }
        self.templates = templates
    }

    /// The parsed template of a text send (nil: sent as it is, or the script is not templated).
    package func template(for text: String) -> TemplateText? { templates[text] }
}
