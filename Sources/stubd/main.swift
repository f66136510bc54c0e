import StubdCLI

// The plain command: fixture files only, plus the OpenAPI importer. A targets package calls
// `Stubd.main(targets:)` instead.
Stubd.main(targets: [], importCommands: [ImportOpenAPICommand.self])
