import FixtureFiles
import Foundation
import StubModel

/// Writes imported files as fixture files and prints the report, for every `stubd import` command
/// and the separate `stubd-openapi` program alike, so all of them name, write and report the same way.
public enum ImportOutput {
    /// Writes `files` under `out`, named after each source file relative to `sourceRoot` (else
    /// `fallbackRoot`, else its file name), atomically; prints every unsupported field and problem
    /// on standard error and the summary on standard output. Returns false when `out` cannot be
    /// made or written, or any file was refused (nothing is written for a refused file).
    public static func write(_ files: [ImportedFile], out: String, strict: Bool, sourceRoot: String, fallbackRoot: String) -> Bool {
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            line("stubd: error: --out \(out) cannot be created (\((error as NSError).localizedDescription)); give a folder you can write to", to: .standardError)
            return false
        }
        var written = 0, routes = 0, refused = 0
        for file in files {
            for note in file.unsupported { line(note, to: .standardError) }
            if !file.errors.isEmpty || (strict && !file.unsupported.isEmpty) {
                for error in file.errors { line(error.description, to: .standardError) }
                if strict && file.errors.isEmpty { line("\(file.file): not written (--strict and \(file.unsupported.count) unsupported field(s))", to: .standardError) }
                refused += 1
                continue
            }
            guard !file.fixtures.isEmpty else { continue }
            let relative = outputName(for: file.file, sourceRoot: sourceRoot, fallbackRoot: fallbackRoot)
            do {
                try AtomicFile.write(Array(FixtureWriter.text(for: file.fixtures).utf8), named: relative, inside: out)
            } catch {
                line("stubd: error: \(error)", to: .standardError)
                return false
            }
            written += 1
            routes += file.fixtures.count
        }
        line("stubd: imported \(routes) route(s) into \(written) file(s) in \(out)"
             + (refused > 0 ? "; \(refused) file(s) refused, nothing written for them" : ""), to: .standardOutput)
        return refused == 0
    }

    /// `mappings/users/get.json` under root `mappings` → `users-get.json`.
    static func outputName(for file: String, sourceRoot: String, fallbackRoot: String) -> String {
        let base = file.hasPrefix(sourceRoot + "/") ? String(file.dropFirst(sourceRoot.count + 1))
            : file.hasPrefix(fallbackRoot + "/") ? String(file.dropFirst(fallbackRoot.count + 1)) : (file as NSString).lastPathComponent
        return (base as NSString).deletingPathExtension.replacingOccurrences(of: "/", with: "-") + ".json"
    }

    private static func line(_ text: String, to handle: FileHandle) {
        handle.write(Data((text + "\n").utf8))
    }
}
