import StubModel
/// The engine's public types (`EngineConfiguration`, `HTTPSSettings`, `IncomingRequest`, …) are
/// part of the server's API — a `StubdServer.Configuration` holds an `EngineConfiguration` — so an
/// embedding test needs only `import StubServer`. The engine itself cannot see this module.
@_exported import StubdEngine

/// Recording's types (`Recorder`, `RecordingOptions`, `Redactor`) appear in the configuration too.
@_exported import Recording
