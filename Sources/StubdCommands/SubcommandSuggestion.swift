import ArgumentParser

/// `serve` is the default subcommand, so a mistyped subcommand (`stubd servee`, `stubd completion`)
/// reaches it as a fixture folder and used to fail as a missing folder. A path that does not exist
/// and reads like a subcommand is refused with the fix instead.
enum SubcommandSuggestion {
    /// The refusal for `path`, when it is no file or folder and is within two edits of a
    /// subcommand's name (or asks for shell completion); nil otherwise.
    static func refusal(for path: String, exists: (String) -> Bool) -> ValidationError? {
        guard !path.contains("/"), !path.hasSuffix(".json"), !exists(path) else { return nil }
        if ["completion", "completions"].contains(path.lowercased()) {
            return ValidationError("'\(path)' is neither a folder nor a subcommand; stubd --generate-completion-script bash (or zsh, fish) prints the completion script (docs/CLI.md)")
        }
        let names = Stubd.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard let closest = names.min(by: { distance($0, path.lowercased()) < distance($1, path.lowercased()) }),
              distance(closest, path.lowercased()) <= 2 else { return nil }
        return ValidationError("'\(path)' is neither a folder nor a subcommand; did you mean `stubd \(closest)`?")
    }

    /// Levenshtein distance (names are a few letters: quadratic is nothing here).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}
