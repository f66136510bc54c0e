/// From what size a request body, a request's head (target and headers: a template may read a
/// 60 KB query many times) or a WebSocket message is matched and answered off the serving loop:
/// reading it is linear, but a 3.6 MB JSON body of 200,000 keys still takes a few hundred
/// milliseconds, which would hold every other request of the loop.
///
/// Public, not `package`: this toolchain inlines no `package` declaration into another module
/// (a two-module probe: an `@inlinable package` getter stays a call), and the handler compares
/// every request's body with it. StubdState is no product, so no user sees it.
public enum OffLoop {
    /// 64 KiB.
    @inlinable public static var bytes: Int { 64 << 10 }
    /// 16 KiB of request target and headers (a browser's head is 1–2 KiB; nginx's default
    /// buffer for one is 8 KiB): a template can repeat what it reads many times, so a large head
    /// moves the decision off the loop sooner than a large body does.
    @inlinable public static var headBytes: Int { 16 << 10 }
}
