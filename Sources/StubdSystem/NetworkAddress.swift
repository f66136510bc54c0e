#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// An IP address as a connection reaches it — the bytes, not a spelling — so that where a request
/// goes is decided by the address (a name in `/etc/hosts` pointing at 127.0.0.1 is loopback, like
/// `127.1` or `[::ffff:127.0.0.1]`). An IPv4-mapped IPv6 address is kept as the IPv4 address it
/// reaches.
public struct NetworkAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6).
    public let bytes: [UInt8]

    /// The address of `bytes` (4 or 16 of them); nil for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        let mapped = bytes.count == 16 && bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
        self.bytes = mapped ? Array(bytes.suffix(4)) : bytes
    }

    /// An address literal in any form the resolver takes — dotted decimal, IPv6 (brackets
    /// allowed), `inet_aton`'s legacy forms (`127.1`, `0x7f.1`, `2130706433`) — or nil for a name.
    public init?(literal text: String) {
        var text = text
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        guard let bytes = System.numericAddress(text) ?? System.legacyIPv4Address(text) else { return nil }
        self.init(bytes: bytes)
    }

    /// The address a `sockaddr` holds (IPv4 or IPv6: `getaddrinfo`'s `ai_addr`), or nil for another family.
    package init?(sockaddr raw: UnsafeRawPointer) {
        let address = raw.assumingMemoryBound(to: sockaddr.self)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            var value = raw.loadUnaligned(as: sockaddr_in.self).sin_addr
            self.init(bytes: withUnsafeBytes(of: &value) { Array($0) })
        case AF_INET6:
            var value = raw.loadUnaligned(as: sockaddr_in6.self).sin6_addr
            self.init(bytes: withUnsafeBytes(of: &value) { Array($0) })
        default:
            return nil
        }
    }

    /// Whether it is IPv6.
    public var isIPv6: Bool { bytes.count == 16 }

    /// The numeric text (`127.0.0.1`, `::1`), as a connect call takes it.
    public var description: String {
        var buffer = [CChar](repeating: 0, count: 64)
        let family = isIPv6 ? AF_INET6 : AF_INET
        let written = bytes.withUnsafeBytes { raw in inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) }
        guard written != nil else { return "?" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// 127.0.0.0/8 or `::1`.
    public var isLoopback: Bool { isIPv6 ? bytes == [UInt8](repeating: 0, count: 15) + [1] : bytes[0] == 127 }

    /// 0.0.0.0/8 or `::` (a connect to it reaches this machine).
    public var isUnspecified: Bool { isIPv6 ? bytes.allSatisfy { $0 == 0 } : bytes[0] == 0 }

    /// 169.254.0.0/16 or fe80::/10 (cloud metadata services live there).
    public var isLinkLocal: Bool { isIPv6 ? bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80 : bytes[0] == 169 && bytes[1] == 254 }

    /// Loopback, unspecified, or an address of one of this machine's interfaces: a connection to
    /// it reaches this machine (and whatever listens on it, stubd included).
    public var isThisMachine: Bool {
        isLoopback || isUnspecified || System.interfaceAddresses().contains { NetworkAddress(bytes: $0) == self }
    }
}
