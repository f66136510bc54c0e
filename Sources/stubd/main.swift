import StubdCLI

// The plain command: fixture files only. A targets package calls `Stubd.main(targets:)` instead.
Stubd.main(targets: [])
