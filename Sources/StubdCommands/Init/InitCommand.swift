import ArgumentParser
import Foundation

/// `stubd init`: a targets package next to an app, serving the Moya targets its API files declare.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Make a stubd targets package from an app's Moya API files (linked, not copied).",
        discussion: """
              $ stubd init --api MyApp/Networking
              stubd: found 2 target types in 3 files: 6 cases listed, 2 with values to fill in
              stubd: wrote StubdTargets/Package.swift and StubdTargets/Sources/StubdTargets/main.swift, linked 3 API files
              next:  cd StubdTargets && swift run stubd-targets serve --port 8080
            """
    )

    @Argument(help: "Folder for the package (created; default: StubdTargets). Not `stubd`: SwiftPM would take it for stubd's own package.")
    var directory: String = "StubdTargets"

    @Option(name: .customLong("api"), help: "An API file or a folder of them (repeatable).")
    var apiPaths: [String] = []

    @Option(name: .customLong("stubd-package"), help: "stubd's source: a local checkout's path or a git URL (default: the checkout this stubd was built from).")
    var stubdPackage: String?

    @Flag(help: "Replace an existing Package.swift and main.swift in the folder.")
    var force = false

    func validate() throws {
        if apiPaths.isEmpty { throw ValidationError("--api PATH is required: the app's API files (or their folder) that declare its Moya targets") }
    }

    func run() throws {
        let files = try apiPaths.flatMap { path throws -> [String] in
            let found = Self.swiftFiles(at: path)
            guard let found else { throw fail("--api \(path): no such file or folder") }
            return found
        }
        let sources = try files.map { file throws -> String in
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw fail("\(file): cannot be read as UTF-8 text") }
            return text
        }
        let targets = APIScanner.scan(sources)
        guard !targets.isEmpty else {
            throw fail("--api \(apiPaths.joined(separator: " ")): no type conforming to TargetType (or a protocol refining it) in \(files.count) Swift file(s); pass the files that declare the app's Moya targets")
        }
        let dependency = try dependency()
        let folderName = ((directory as NSString).standardizingPath as NSString).lastPathComponent.lowercased()
        if folderName == dependency.identity {
            throw fail("\(directory): a package folder named \((directory as NSString).lastPathComponent) has the same SwiftPM identity as stubd's own package (\(dependency.identity)), and SwiftPM would fail with \"product 'StubdCLI' … not found\"; pick another folder name, e.g. StubdTargets (the default)")
        }
        let package = TargetsPackage(dependency: dependency, targets: targets)
        let sourcesFolder = (directory as NSString).appendingPathComponent("Sources/StubdTargets")
        let manifest = (directory as NSString).appendingPathComponent("Package.swift")
        let main = (sourcesFolder as NSString).appendingPathComponent("main.swift")
        if !force, FileManager.default.fileExists(atPath: manifest) {
            throw fail("\(manifest) already exists; pass --force to replace it, or pick another folder")
        }
        do {
            try FileManager.default.createDirectory(atPath: sourcesFolder, withIntermediateDirectories: true)
            try Data(package.packageSwift.utf8).write(to: URL(fileURLWithPath: manifest), options: .atomic)
            try Data(package.mainSwift.utf8).write(to: URL(fileURLWithPath: main), options: .atomic)
            let moyaFolder = (directory as NSString).appendingPathComponent("Sources/Moya")
            try FileManager.default.createDirectory(atPath: moyaFolder, withIntermediateDirectories: true)
            try Data(TargetsPackage.moyaSwift.utf8).write(to: URL(fileURLWithPath: (moyaFolder as NSString).appendingPathComponent("Moya.swift")), options: .atomic)
            var used: Set<String> = ["main.swift"]
            for file in files {
                var name = (file as NSString).lastPathComponent
                if used.contains(name) { name = ((file as NSString).deletingLastPathComponent as NSString).lastPathComponent + "-" + name }
                used.insert(name)
                let link = (sourcesFolder as NSString).appendingPathComponent(name)
                try? FileManager.default.removeItem(atPath: link)
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Self.relativePath(from: sourcesFolder, to: file))
            }
        } catch {
            throw fail("\(directory): cannot write the package (\(error.localizedDescription)); pick a writable folder")
        }
        let plain = targets.reduce(0) { $0 + $1.plainCases.count }
        let payload = targets.reduce(0) { $0 + $1.payloadCases.count } + targets.filter { !$0.isEnum }.count
        printOut("stubd: found \(targets.count) target type(s) in \(files.count) file(s): \(plain) case(s) listed, \(payload) with values to fill in (commented out in main.swift)")
        printOut("stubd: wrote \(manifest) and \(main), linked \(files.count) API file(s)")
        printOut("next:  cd \(directory) && swift run stubd-targets serve --port 8080")
        printOut("       cd \(directory) && swift run stubd-targets export --out ../stubd-fixtures")
    }

    /// The Swift files at a path: itself, or every `.swift` file below a folder (sorted); nil if
    /// nothing is there.
    static func swiftFiles(at path: String) -> [String]? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        guard isFolder.boolValue else { return [path] }
        let files = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        return files.sorted().map { (path as NSString).appendingPathComponent($0) }
    }

    /// `to` relative to the folder `from` (both made absolute first): for the API files' symbolic
    /// links and the manifest's path to stubd, so both survive moving the app and the package
    /// together and can be committed.
    static func relativePath(from folder: String, to file: String) -> String {
        let current = FileManager.default.currentDirectoryPath
        func parts(_ path: String) -> [String] {
            let absolute = path.hasPrefix("/") ? path : (current as NSString).appendingPathComponent(path)
            return (absolute as NSString).standardizingPath.split(separator: "/").map(String.init)
        }
        let base = parts(folder), target = parts(file)
        let common = zip(base, target).prefix { $0 == $1 }.count
        return (Array(repeating: "..", count: base.count - common) + target[common...]).joined(separator: "/")
    }

    private func dependency() throws -> TargetsPackage.Dependency {
        if let stubdPackage {
            if stubdPackage.contains("://") || stubdPackage.hasPrefix("git@") { return .url(stubdPackage, from: StubdVersion.current) }
            guard FileManager.default.fileExists(atPath: (stubdPackage as NSString).appendingPathComponent("Package.swift")) else {
                throw fail("--stubd-package \(stubdPackage): no Package.swift there; give stubd's checkout folder or its git URL")
            }
            return .path(Self.relativePath(from: directory, to: stubdPackage))
        }
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: checkout + "/Package.swift") else {
            throw fail("this stubd was not built from a checkout on this machine; pass --stubd-package with stubd's checkout folder or its git URL")
        }
        return .path(Self.relativePath(from: directory, to: checkout))
    }

    private func fail(_ message: String) -> ExitCode {
        printError("stubd: error: \(message)")
        return ExitCode(1)
    }
}
