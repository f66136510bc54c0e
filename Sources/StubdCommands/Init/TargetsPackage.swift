import Foundation
/// The files of a stubd targets package: `Package.swift` and a `main.swift` listing the targets
/// an app's API files declare. The API files themselves are linked, never copied, so the package
/// always serves what the app sends.
struct TargetsPackage {
    /// How the package depends on stubd: a checkout's path relative to the package (so the
    /// package can be committed), or a git URL with a version.
    enum Dependency: Equatable {
        case path(String)
        case url(String, from: String)

        /// SwiftPM's identity for the dependency: the last path or URL component, lower-cased,
        /// without `.git`. A package folder with the same name would be taken for it.
        var identity: String {
            let text: String
            switch self {
            case .path(let path): text = path
            case .url(let url, _): text = url
            }
            var last = text.split(separator: "/").last.map(String.init) ?? text
            if last.hasSuffix(".git") { last.removeLast(4) }
            return last.lowercased()
        }

        /// The name the manifest's `.product(…, package:)` uses.
        var packageReference: String {
            if case .url = self { return identity }
            return "stubd"
        }
    }

    var dependency: Dependency
    var targets: [APIScanner.TargetTypeFound]

    var packageSwift: String {
        let line: String
        switch dependency {
        case .path(let path): line = ".package(name: \"stubd\", path: \(quoted(path)))"
        case .url(let url, let version): line = ".package(url: \(quoted(url)), from: \(quoted(version)))"
        }
        return """
            // swift-tools-version:6.0
            // A stubd targets package, made by `stubd init`: serves the app's Moya targets.
            //   swift run stubd-targets serve --port 8080
            //   swift run stubd-targets export --out ../stubd-fixtures
            import PackageDescription

            let package = Package(
                name: "StubdTargets",
                platforms: [.macOS(.v15)],
                dependencies: [
                    \(line),
                ],
                targets: [
                    .executableTarget(
                        name: "stubd-targets",
                        dependencies: [
                            .product(name: "StubdCLI", package: "\(dependency.packageReference)"),
                            "Moya",
                        ],
                        path: "Sources/StubdTargets"
                    ),
                    // `import Moya` in the API files: stubd's Moya 15 surface under Moya's name.
                    .target(name: "Moya", dependencies: [.product(name: "TargetModel", package: "\(dependency.packageReference)")]),
                ]
            )

            """
    }

    /// The package's own `Moya` module. It lives here, not in stubd's package, because SwiftPM wants
    /// target names unique across a whole package graph: a `Moya` target in stubd kept every app
    /// that uses the real Moya from adding stubd (for `StubdTesting`) at all.
    static let moyaSwift = """
        // `import Moya` for the app's API files linked beside main.swift: they compile unchanged
        // (`Moya.Method`, `Moya.Task`, `Moya.TargetType`, `Moya.StubBehavior`, …) against stubd's Moya 15
        // surface, `TargetModel`, without the real Moya or Alamofire. Made by `stubd init`.
        @_exported import TargetModel

        """

    var mainSwift: String {
        var lines = [
            "import Foundation",
            "import StubdCLI",
            "",
            "// Every target stubd serves. Made by `stubd init` from the app's API files (linked beside this",
            "// file). Cases with associated values need the values the stubs should answer for: fill them in",
            "// and uncomment them.",
            "Stubd.main(targets: [",
        ]
        for target in targets {
            if target.isEnum {
                lines += target.plainCases.map { "    \(target.name).\($0)," }
                lines += target.payloadCases.map { "    // \(target.name).\(Self.placeholder(for: $0))," }
            } else {
                lines.append("    // \(target.name)(),  (a struct or class: write the value)")
            }
        }
        lines.append("])")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `update(id: Int, name: String)` → `update(id: <#Int#>, name: <#String#>)`: the values to
    /// fill in, shown as Xcode placeholders.
    static func placeholder(for declaration: String) -> String {
        guard let open = declaration.firstIndex(of: "("), declaration.hasSuffix(")") else { return declaration }
        let name = declaration[..<open]
        let inner = declaration[declaration.index(after: open)..<declaration.index(before: declaration.endIndex)]
        let parameters = inner.split(separator: ",").map { parameter -> String in
            let parts = parameter.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let type = (parts.count == 2 ? parts[1] : parts[0]).components(separatedBy: "=").first!.trimmingCharacters(in: .whitespaces)
            return parts.count == 2 ? "\(parts[0].split(separator: " ").last ?? ""): <#\(type)#>" : "<#\(type)#>"
        }
        return "\(name)(\(parameters.joined(separator: ", ")))"
    }

    private func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
