// `import Moya` for the app's API files linked beside main.swift: they compile unchanged
// (`Moya.Method`, `Moya.Task`, `Moya.TargetType`, `Moya.StubBehavior`, …) against stubd's Moya 15
// surface, `TargetModel`, without the real Moya or Alamofire. Made by `stubd init`.
@_exported import TargetModel
