// A running server's configuration names the serving core's, the engine's, the admin API's and the
// recorder's types (`CORSPolicy`, `EngineConfiguration`, `AdminAccess`, `Recorder`): an
// embedding test needs one import.
@_exported import StubServer
@_exported import AdminAPI
@_exported import Dashboard
@_exported import AdminContract
