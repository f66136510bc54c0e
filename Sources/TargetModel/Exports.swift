/// The stub model (Fixture, RequestPattern, StubOutcome, JSON) is part of what a Moya API file
/// works with (a target's `sampleResponse` becomes a `StubOutcome`), so importing the Moya layer
/// brings it along.
@_exported import StubModel
