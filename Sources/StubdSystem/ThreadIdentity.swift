#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Which thread is running, so loop-confined code can tell whether it may act directly or must
/// hop to its loop (the check behind swift-nio's `NIOLoopBound`).
public struct ThreadIdentity: @unchecked Sendable {
    // `pthread_t` is an integer on Linux and a pointer on Darwin; it is only ever compared.
    private let thread: pthread_t

    /// The calling thread.
    public static var current: ThreadIdentity { ThreadIdentity(thread: pthread_self()) }

    /// Whether the calling thread is this one.
    public var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }
}
