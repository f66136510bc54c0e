/// From what size a request body or a WebSocket message is matched and answered off the serving
/// loop: reading it is linear, but a 3.6 MB JSON body of 200,000 keys still takes a few hundred
/// milliseconds, which would hold every other request of the loop.
///
/// Public, not `package`: this toolchain inlines no `package` declaration into another module
/// (a two-module probe: an `@inlinable package` getter stays a call), and the handler compares
/// every request's body with it. StubdState is no product, so no user sees it.
public enum OffLoop {
    /// 64 KiB.
    @inlinable public static var bytes: Int { 64 << 10 }
}
