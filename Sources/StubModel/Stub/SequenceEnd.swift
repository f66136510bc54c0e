/// What a response sequence does once its last outcome has been served.
public enum SequenceEnd: String, Sendable, Equatable {
    /// Keep answering with the last outcome.
    case repeatLast
    /// Start again from the first.
    case cycle
}
