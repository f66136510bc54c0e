import CLibevent
import Foundation
import TargetModel

/// Produces `Fault`s on a live evhttp connection (libevent-notes §4). `hang` is not here: it is
/// a timer held by the worker, which closes the connection at the cap.
///
/// Every path frees the connection (and with it the request); nothing touches `req` afterwards.
enum LibeventFaultInjector {
    /// The bytes sent by `garbage`: a status line followed by a header line that is not a header,
    /// so clients fail while parsing the response (curl 8 "Weird server reply") rather than
    /// calling it an HTTP/0.9 reply (curl 1, which URLSession on Linux reports as "unsupported URL").
    static let garbageBytes: [UInt8] = Array("HTTP/1.1 200 OK\r\nstubd garbage fault, not a header line\r\n\r\n".utf8)

    static func inject(_ fault: Fault, on req: OpaquePointer) {
        guard let connection = evhttp_request_get_connection(req) else { return }
        switch fault {
        case .reset:
            reset(connection)
        case .empty, .hang:
            evhttp_connection_free(connection)
        case .garbage:
            garbage(connection)
        }
    }

    /// RST instead of FIN: linger 0, then swap the fd number to an inert socket with `dup2` so
    /// evhttp's own `shutdown(SHUT_WR)` cannot send a FIN first; the last close of the real socket
    /// sends the reset.
    private static func reset(_ connection: OpaquePointer) {
        let fd = bufferevent_getfd(evhttp_connection_get_bufferevent(connection))
        if fd >= 0 {
            var noLinger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &noLinger, socklen_t(MemoryLayout<linger>.size))
            let placeholder = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            if placeholder >= 0 {
                dup2(placeholder, fd)
                close(placeholder)
            }
        }
        evhttp_connection_free(connection)
    }

    /// Takes the bufferevent away from evhttp, writes the garbage, and frees the connection once
    /// the bytes have left (or the peer failed).
    private static func garbage(_ connection: OpaquePointer) {
        guard let bev = evhttp_connection_get_bufferevent(connection) else {
            evhttp_connection_free(connection)
            return
        }
        let context = UnsafeMutableRawPointer(connection)
        bufferevent_setcb(bev, nil, onGarbageWritten, onGarbageEvent, context)
        garbageBytes.withUnsafeBytes { _ = bufferevent_write(bev, $0.baseAddress, $0.count) }
        bufferevent_enable(bev, Int16(EV_WRITE))
    }
}

private func onGarbageWritten(_ bev: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let bev, let arg, evbuffer_get_length(bufferevent_get_output(bev)) == 0 else { return }
    evhttp_connection_free(OpaquePointer(arg))
}

private func onGarbageEvent(_ bev: OpaquePointer?, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    evhttp_connection_free(OpaquePointer(arg))
}
