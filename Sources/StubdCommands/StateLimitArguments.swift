import ArgumentParser
import StubdRuntime
import StubdState
import StubdTemplates
import Foundation

/// The byte bounds of what stubd keeps per session and renders per request: `serve` and
/// `record` take them, and each refusal at a bound names its flag.
struct StateLimitArguments: ParsableArguments {
    @Option(name: .customLong("store-value-limit"), help: "Bytes one saved value or collection item may take (e.g. 1MiB).")
    var valueLimit = ByteSize(StateBudget.Limits().valueBytes)

    @Option(name: .customLong("store-session-limit"), help: "Bytes one session's saved values, collections, counters and scenario states may take together.")
    var sessionLimit = ByteSize(StateBudget.Limits().sessionBytes)

    @Option(name: .customLong("store-limit"), help: "Bytes every session's state may take together; sessions no test opened through the admin API get half.")
    var totalLimit = ByteSize(StateBudget.Limits().totalBytes)

    @Option(name: .customLong("template-output-limit"), help: "Bytes one templated answer or webhook may reach (it is also held to 4 x (template + request) + 64KiB).")
    var templateOutputLimit = ByteSize(TemplateState.defaultOutputLimit)

    func validate() throws {
        guard valueLimit.bytes <= sessionLimit.bytes else {
            throw ValidationError("--store-value-limit (\(valueLimit)) is over --store-session-limit (\(sessionLimit)); no value could be kept")
        }
        guard sessionLimit.bytes <= totalLimit.bytes else {
            throw ValidationError("--store-session-limit (\(sessionLimit)) is over --store-limit (\(totalLimit)); lower it or raise --store-limit")
        }
    }

    /// Puts the bounds into a server's configuration.
    func configure(_ settings: inout StubdServer.Configuration) {
        settings.stateLimits = StateBudget.Limits(valueBytes: valueLimit.bytes, sessionBytes: sessionLimit.bytes, totalBytes: totalLimit.bytes)
        settings.templateOutputLimit = templateOutputLimit.bytes
    }
}

/// A size on the command line: bytes, or a number with `KiB`, `MiB` or `GiB` (`KB`, `MB`, `GB`
/// and `K`, `M`, `G` read the same, as powers of 1,024).
struct ByteSize: ExpressibleByArgument, CustomStringConvertible, Sendable {
    let bytes: Int

    init(_ bytes: Int) {
        self.bytes = bytes
    }

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = text.prefix { $0.isNumber }
        let unit = text.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        let scale: Int
        switch unit {
        case "", "b": scale = 1
        case "k", "kb", "kib": scale = 1 << 10
        case "m", "mb", "mib": scale = 1 << 20
        case "g", "gb", "gib": scale = 1 << 30
        default: return nil
        }
        guard let number = Int(digits), number > 0, number <= Int.max / scale else { return nil }
        bytes = number * scale
    }

    var description: String { StateBudget.size(bytes) }

    static var defaultCompletionKind: CompletionKind { .default }
}
