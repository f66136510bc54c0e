import StubdCLI

// The plain command: fixture files only. A targets package calls `Stubd.main(targets:)` with its
// targets; both get every subcommand (`import openapi` runs the separate stubd-openapi program).
Stubd.main(targets: [])
