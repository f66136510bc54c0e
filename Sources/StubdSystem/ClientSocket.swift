#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

#if canImport(Darwin)
private let sysConnect = Darwin.connect
private let sysSend = Darwin.send
private let noSignalFlag: Int32 = 0  // Darwin has no MSG_NOSIGNAL: SO_NOSIGPIPE is set on the socket instead.
#else
private let sysConnect = Glibc.connect
private let sysSend = Glibc.send
private let noSignalFlag = Int32(MSG_NOSIGNAL)
#endif

extension System {
    /// A blocking TCP connection to 127.0.0.1:`port` that never raises SIGPIPE, with a receive
    /// timeout, or nil: for the raw-socket clients of the tests and probes (half-sent heads,
    /// floods, exact bytes), which must build on Linux and macOS alike.
    public static func connectLoopback(port: Int, receiveTimeout seconds: Double = 5) -> Int32? {
        guard let address = try? resolve(host: "127.0.0.1", port: port).first,
              let fd = try? streamSocket(for: address) else { return nil }
        do {
            _ = try address.withSockaddr { pointer, length throws(SystemError) in
                try call("connect") { sysConnect(fd, pointer, length) }
            }
        } catch {
            close(fd)
            return nil
        }
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        setReceiveTimeout(fd, seconds: seconds)
        return fd
    }

    /// Makes `recv` on `fd` give up after `seconds` with nothing to read.
    public static func setReceiveTimeout(_ fd: Int32, seconds: Double) {
        // `.init` takes each field's own type: `tv_usec` is Int32 on Darwin, Int on Glibc.
        var timeout = timeval(tv_sec: .init(seconds.rounded(.down)), tv_usec: .init((seconds - seconds.rounded(.down)) * 1_000_000))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends every byte, without SIGPIPE when the peer has gone; false if it could not.
    @discardableResult
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in sysSend(fd, buffer.baseAddress! + sent, buffer.count - sent, noSignalFlag) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }
}
