/// Which status codes a Moya client accepts. stubd serves whatever status a stub has; validation
/// stays the client's job, but the value is kept so targets compile and tools can show it.
public enum ValidationType: Equatable, Sendable {
    /// No validation.
    case none
    /// 2xx.
    case successCodes
    /// 2xx and 3xx.
    case successAndRedirectCodes
    /// Exactly these codes; an empty list means no validation.
    case customCodes([Int])

    /// The accepted status codes; empty means every code is accepted.
    public var statusCodes: [Int] {
        switch self {
        case .successCodes: return Array(200..<300)
        case .successAndRedirectCodes: return Array(200..<400)
        case .customCodes(let codes): return codes
        case .none: return []
        }
    }
}
