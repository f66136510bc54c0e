// `import Moya` for an app's API file inside a stubd targets package: the file compiles unchanged
// (`Moya.Method`, `Moya.Task`, `Moya.TargetType`, `Moya.StubBehavior`,
// `Moya.EndpointSampleResponse`) against stubd's own Moya 15 surface, `TargetModel`, without
// linking the real Moya or Alamofire. Code that is not an app's API file should import
// `TargetModel`, the honest name.
@_exported import TargetModel
