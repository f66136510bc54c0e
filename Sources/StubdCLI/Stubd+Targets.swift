/// The commands themselves are in `StubdCommands`; a targets package imports this module only.
@_exported import StubdCommands
public import TargetModel

extension Stubd {
    /// Runs the command line with these Swift targets served beside any fixture folders given —
    /// what a targets package's `main.swift` calls. Never returns: exits with the command's status.
    public static func main(targets: [any TargetType], arguments: [String]? = nil) -> Never {
        main(catalog: MoyaTargetCatalog(targets: targets), arguments: arguments)
    }
}
