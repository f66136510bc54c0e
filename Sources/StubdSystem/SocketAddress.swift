#if canImport(Darwin)
public import Darwin
#elseif canImport(Glibc)
public import Glibc
#endif

/// An IPv4 or IPv6 socket address, copied out of the resolver's or the kernel's structures so
/// no C pointer outlives the call that produced it.
public struct SocketAddress: Sendable, Equatable, CustomStringConvertible {
    private let storage: [UInt8]

    init(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        storage = Array(UnsafeRawBufferPointer(start: address, count: Int(length)))
    }

    init(storage value: sockaddr_storage) {
        var copy = value
        let length: Int
        switch Int32(value.ss_family) {
        case AF_INET: length = MemoryLayout<sockaddr_in>.size
        case AF_INET6: length = MemoryLayout<sockaddr_in6>.size
        default: length = MemoryLayout<sockaddr_storage>.size
        }
        storage = withUnsafeBytes(of: &copy) { Array($0.prefix(length)) }
    }

    /// `AF_INET` or `AF_INET6`.
    public var family: Int32 {
        withSockaddr { pointer, _ in Int32(pointer.pointee.sa_family) }
    }

    /// The port, for IPv4 and IPv6 addresses.
    public var port: Int? {
        storage.withUnsafeBytes { raw -> Int? in
            switch family {
            case AF_INET where raw.count >= MemoryLayout<sockaddr_in>.size:
                return Int(UInt16(bigEndian: raw.loadUnaligned(as: sockaddr_in.self).sin_port))
            case AF_INET6 where raw.count >= MemoryLayout<sockaddr_in6>.size:
                return Int(UInt16(bigEndian: raw.loadUnaligned(as: sockaddr_in6.self).sin6_port))
            default:
                return nil
            }
        }
    }

    /// The numeric host (`127.0.0.1`, `::1`).
    public var host: String {
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let status = withSockaddr { pointer, length in
            getnameinfo(pointer, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST)
        }
        guard status == 0 else { return "?" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// `host:port`, with IPv6 hosts in brackets.
    public var description: String {
        let shown = family == AF_INET6 ? "[\(host)]" : host
        return port.map { "\(shown):\($0)" } ?? shown
    }

    /// Calls `body` with a `sockaddr` pointer valid only for the call.
    public func withSockaddr<Result, Failure: Error>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var aligned = sockaddr_storage()
        withUnsafeMutableBytes(of: &aligned) { raw in
            raw.copyBytes(from: storage.prefix(raw.count))
        }
        let length = socklen_t(storage.count)
        return try withUnsafePointer(to: &aligned) { pointer throws(Failure) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(Failure) in
                try body(address, length)
            }
        }
    }
}
