/// The HTTP vocabulary (`NameValue`, `Fault`, `Dribble`, `CheckedNumber`, `CivilTime`, WebSocket
/// frames) lives in StubdHTTP so the engine can use it without StubModel; whoever imports
/// StubModel sees it as before.
@_exported import StubdHTTP
