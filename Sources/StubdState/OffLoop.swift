/// From what size a request body or a WebSocket message is matched and answered off the serving
/// loop: reading it is linear, but a 3.6 MB JSON body of 200,000 keys still takes a few hundred
/// milliseconds, which would hold every other request of the loop.
package enum OffLoop {
    /// 64 KiB (inlined: the handler compares every request's body with it).
    @inlinable package static var bytes: Int { 64 << 10 }
}
