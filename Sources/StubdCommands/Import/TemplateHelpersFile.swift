import ArgumentParser
import Importers
import FixtureFiles

/// `--template-helpers FILE` (on `import wiremock` and `serve --wiremock`): the suite's helpers,
/// or exit 1 naming the flag, the file and the helper at fault.
enum TemplateHelpersFile {
    static func load(_ path: String?) throws -> [String: TemplateHelpers.Helper] {
        guard let path else { return [:] }
        do {
            return try TemplateHelpers.load(path)
        } catch {
            printError("stubd: error: --template-helpers \(error.description)")
            throw ExitCode(1)
        }
    }
}
