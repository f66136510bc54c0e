import ArgumentParser
import StubModel
import StubdRuntime
import StubdEngine

/// How an https upstream is trusted, for `serve --proxy-unmatched` and `record`.
struct UpstreamTLSArguments: ParsableArguments {
    @Option(name: .customLong("upstream-ca"), help: "PEM file of CA certificates an https upstream is checked against (default: the system's trust store).")
    var upstreamCA: String?

    @Flag(name: .customLong("insecure-upstream"), help: "Do not verify an https upstream's certificate or host name.")
    var insecureUpstream = false

    /// The upstream at `url`, or a validation error naming `flag`.
    func upstream(_ url: String, flag: String) throws -> ProxyUpstream {
        do {
            return try ProxyUpstream(url: url, caFile: upstreamCA, insecure: insecureUpstream)
        } catch {
            throw ValidationError("\(flag) \(error.description)")
        }
    }

    /// The trust settings alone (for upstreams named later through the admin API).
    var tls: UpstreamTLS { UpstreamTLS(caFile: upstreamCA, verify: !insecureUpstream) }
}

/// What a recording keeps and how, for `record` and `serve --record`.
struct RecordingArguments: ParsableArguments {
    @Option(name: .customLong("keep"), help: "A header, query parameter or field name whose value is written as sent instead of redacted (repeatable).")
    var keep: [String] = []

    @Flag(help: "Record every answer of a repeated request as a responses sequence (default: keep the first answer).")
    var sequences = false

    @Flag(help: "Replace hand-written fixture files of the same name in the output folder (default: never).")
    var overwrite = false

    @Option(name: .customLong("record-max-body"), help: ArgumentHelp("The largest answer body recorded, in bytes (default 67108864, 64 MiB); a longer one is passed to the client as it arrives and not recorded.", valueName: "BYTES"))
    var maxBody: Int = 64 << 20

    func validate() throws {
        guard maxBody > 0 else { throw ValidationError("--record-max-body must be a positive number of bytes, got \(maxBody)") }
    }

    /// Options writing to `out`; in a targets package, requests a target covers are named after it.
    func options(out: String) throws -> RecordingOptions {
        var targets: RouteTable?
        if let catalog = SwiftTargets.catalog {
            let compiled = try catalog.compile(omitNever: false, match: .shape)
            targets = try RouteTable(fixtures: compiled.fixtures)
        }
        var options = RecordingOptions(out: out, keep: keep, sequences: sequences, overwrite: overwrite, targets: targets)
        options.maxBodyBytes = maxBody
        return options
    }

    /// The recorder, or the start-up error (an output folder that cannot be written) as exit 1.
    func recorder(upstream: String, out: String, flag: String, log: @escaping @Sendable (String) -> Void) throws -> Recorder {
        let recorder: Recorder
        do {
            recorder = try Recorder(upstream: upstream, options: try options(out: out), log: log)
        } catch let error as RecordingError {
            printError("stubd: error: \(flag) \(error.description)")
            throw ExitCode(1)
        }
        for warning in recorder.warnings { printError("warning: \(warning)") }
        return recorder
    }
}
