import StubdCommands

// The plain command: fixture files only, without the Moya layer (a targets package's main.swift
// calls StubdCLI's `Stubd.main(targets:)` with its targets); both get every subcommand
// (`import openapi` runs the separate stubd-openapi program).
Stubd.main(catalog: nil)
