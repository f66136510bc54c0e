import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

extension System {
    /// The bytes of an IP address literal — 4 for IPv4 dotted decimal, 16 for IPv6 — or nil for
    /// anything else, names included (`127.0.0.1.nip.io` is a name, not an address). No
    /// resolving: `inet_pton`, which takes only the canonical literal forms.
    public static func numericAddress(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    /// Whether `text` is a loopback address literal: 127.0.0.0/8, `::1`, or an IPv4-mapped
    /// 127.x address (`::ffff:127.0.0.1`).
    public static func isLoopbackAddress(_ text: String) -> Bool {
        guard let bytes = numericAddress(text) else { return false }
        if bytes.count == 4 { return bytes[0] == 127 }
        if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
        return bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff && bytes[12] == 127
    }
}

extension System {
    /// Whether a URL's host may reach this machine: a name that resolves here without DNS
    /// (`localhost`, any `*.localhost` — RFC 6761 —, this machine's host name, which Debian maps to
    /// 127.0.1.1), or an address literal in any spelling the resolver takes — `inet_aton`'s
    /// legacy forms too (`127.1`, `0x7f.0.0.1`, `2130706433`) — that is loopback, unspecified
    /// (`0.0.0.0`, `::`, which connect to this machine) or one of its interfaces' addresses,
    /// IPv4-mapped forms included. Names served by DNS are not resolved here.
    public static func isThisMachine(_ host: String) -> Bool {
        guard let name = HostName.normalized(host) else { return false }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        if let own = hostName()?.lowercased(), !own.isEmpty, name == own || name.hasPrefix(own + ".") { return true }
        guard var bytes = numericAddress(name) ?? legacyIPv4Address(name) else { return false }
        // An IPv4-mapped IPv6 address reaches the IPv4 address.
        if bytes.count == 16, bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff { bytes = Array(bytes.suffix(4)) }
        if bytes.count == 4, bytes[0] == 127 || bytes[0] == 0 { return true }
        if bytes.count == 16, bytes.prefix(15).allSatisfy({ $0 == 0 }), bytes[15] <= 1 { return true }
        return interfaceAddresses().contains(bytes)
    }

    /// The four bytes of an IPv4 address in `inet_aton`'s forms (`127.1`, `0x7f.1`, `017700000001`),
    /// or nil.
    static func legacyIPv4Address(_ text: String) -> [UInt8]? {
        guard !text.isEmpty, text.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == "x" || $0 == "X" }) else { return nil }
        var address = in_addr()
        guard inet_aton(text, &address) != 0 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// This machine's host name (`gethostname`), or nil.
    public static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The address bytes (4 or 16) of every interface of this machine, from `getifaddrs`.
    public static func interfaceAddresses() -> [[UInt8]] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [[UInt8]] = []
        var node = list
        while let entry = node {
            defer { node = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var value = v4.pointee.sin_addr
                    addresses.append(withUnsafeBytes(of: &value) { Array($0) })
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var value = v6.pointee.sin6_addr
                    addresses.append(withUnsafeBytes(of: &value) { Array($0) })
                }
            default:
                continue
            }
        }
        return addresses
    }
}

extension System {
    /// `localhost`, or a loopback address literal (`127.x.x.x`, `::1`, IPv4-mapped 127.x) — read
    /// as an address, never by prefix: `127.0.0.1.attacker.example` is a name anyone can point
    /// anywhere (DNS rebinding), so it is not loopback.
    public static func isLoopbackHost(_ host: String) -> Bool {
        host.lowercased() == "localhost" || isLoopbackAddress(host)
    }

    /// Compares without stopping at the first difference, so the time taken does not tell how
    /// much of a guessed secret was right.
    public static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(truncatingIfNeeded: x.count ^ y.count)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }
}
