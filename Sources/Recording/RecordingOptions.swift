/// What a recording does: where it writes, which secrets it keeps, how repeats are stored.
public struct RecordingOptions: Sendable {
    /// The folder fixtures are written to (created if missing).
    public var out: String
    /// Names never redacted (`--keep`), case-insensitive.
    public var keep: [String]
    /// Record every answer of a repeated request as a `responses` sequence (`--sequences`);
    /// otherwise the first answer is kept.
    public var sequences: Bool
    /// Replace hand-written files of the same name (`--overwrite`).
    public var overwrite: Bool
    /// Compiled Swift targets (a targets package): a request one of them covers is named after
    /// it (`GitHubAPI.zen.json`) and its body written as `__files/GitHubAPI.zen.<ext>`, the plain
    /// file the app can load as that target's `sampleData`.
    public var targets: (any RecordingTargets)?
    /// Secret values known from the whole capture (every cookie a HAR file's entries sent or were
    /// set), scrubbed wherever they appear in any entry — a cookie set by one answer and sent in a
    /// later request's path or query included.
    public var knownSecrets: [String] = []
    /// The largest body recorded (`--record-max-body`): a longer answer is relayed to the client as
    /// it arrives, never held whole, and not recorded (the summary, the log and the journal say so).
    public var maxBodyBytes = 64 << 20

    /// Options writing to `out`, redacting every secret, keeping first answers.
    public init(out: String = "fixtures/recorded", keep: [String] = [], sequences: Bool = false, overwrite: Bool = false,
                targets: (any RecordingTargets)? = nil) {
        self.out = out
        self.keep = keep
        self.sequences = sequences
        self.overwrite = overwrite
        self.targets = targets
    }
}
