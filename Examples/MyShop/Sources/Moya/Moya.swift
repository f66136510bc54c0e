// The app's `import Moya`, in this example stubd's Moya 15 surface (`TargetModel`) so the package
// builds with nothing fetched. An app on the real Moya lists `.package(url:
// "https://github.com/Moya/Moya.git", from: "15.0.0")` instead and drops this target; stubd's kit
// sits beside it in the test target either way.
@_exported import TargetModel
