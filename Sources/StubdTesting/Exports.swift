// The kit's calls answer with the admin contract's types (`Health`, `RequestRecord`, …) and take
// the stub model's (`Fixture`): a test target that imports StubdTesting names them without
// importing those modules too.
@_exported import AdminContract
@_exported import StubModel
