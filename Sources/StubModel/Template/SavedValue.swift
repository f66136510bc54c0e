/// One value a route saves for its session when it answers: a name and a template.
public struct SavedValue: Sendable, Hashable {
    /// The name `{{saved.NAME}}` reads.
    public let name: String
    /// What is saved, rendered with the request that reached the route.
    public let value: TemplateText

    /// A saved value.
    public init(name: String, value: TemplateText) {
        self.name = name
        self.value = value
    }
}
