import Foundation
import StubdSystem

/// Where `stubd import openapi` finds the `stubd-openapi` program, in order: `$STUBD_OPENAPI`;
/// beside the running `stubd` (a dist archive, `make install`, Homebrew — also through the
/// symbolic link a package manager puts on PATH); the checkout this stubd was built from
/// (`make openapi` builds it there); then `PATH`.
enum OpenAPIProgram {
    /// The program's file name.
    static let name = "stubd-openapi"

    /// The checkout this binary was compiled from, when it is still on this machine.
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// What a user without the program is told: why it is separate and the command that adds it.
    static var missingMessage: String {
        let inCheckout = FileManager.default.fileExists(atPath: checkout + "/Tools/stubd-openapi/Package.swift")
        return "import openapi runs the separate program \(name), which this stubd does not have "
            + "(it is built apart so that `make run` does not build OpenAPIKit and Yams). "
            + (inCheckout ? "Add it with `make -C \(checkout) openapi` (2–3 minutes); " : "Add it with `make openapi` in stubd's checkout; ")
            + "every `make dist`, `make install` and Homebrew build includes it, or set STUBD_OPENAPI to its path"
    }

    /// Why the program could not be found.
    enum Problem: Error, CustomStringConvertible {
        /// `STUBD_OPENAPI` names something that is not an executable file.
        case notExecutable(String)
        /// None of the places has it.
        case missing

        var description: String {
            switch self {
            case .notExecutable(let path): return "STUBD_OPENAPI=\(path) is not an executable file; point it at a built stubd-openapi, or unset it"
            case .missing: return OpenAPIProgram.missingMessage
            }
        }
    }

    /// `$STUBD_OPENAPI` when set, else the first executable candidate.
    static func locate(environment: [String: String] = ProcessInfo.processInfo.environment,
                       candidates: [String]? = nil) -> Result<String, Problem> {
        if let explicit = environment["STUBD_OPENAPI"], !explicit.isEmpty {
            return FileManager.default.isExecutableFile(atPath: explicit) ? .success(explicit) : .failure(.notExecutable(explicit))
        }
        let found = (candidates ?? Self.candidates(environment: environment)).first { FileManager.default.isExecutableFile(atPath: $0) }
        return found.map { .success($0) } ?? .failure(.missing)
    }

    /// Every place looked at, in order (without `$STUBD_OPENAPI`).
    static func candidates(environment: [String: String]) -> [String] {
        var folders: [String] = []
        // As invoked (a symbolic link on PATH, e.g. Homebrew's bin/) and as the file it is.
        let invoked = CommandLine.arguments.first ?? ""
        if invoked.contains("/") { folders.append((invoked as NSString).deletingLastPathComponent) }
        if let executable = System.executablePath() { folders.append((executable as NSString).deletingLastPathComponent) }
        folders += ["release", "debug"].map { checkout + "/Tools/stubd-openapi/.build/" + $0 }
        folders += (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        var seen: Set<String> = []
        return folders.filter { seen.insert($0).inserted }.map { $0 + "/" + name }
    }
}
