#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

extension System {
    /// This machine's IPv4 addresses other than loopback (`192.168.1.20`), from `getifaddrs`:
    /// what a phone on the same network would use to reach a server listening on `0.0.0.0`.
    public static func nonLoopbackIPv4Addresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        var node = list
        while let entry = node {
            defer { node = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, Int32(address.pointee.sa_family) == AF_INET else { continue }
            let text = SocketAddress(address, length: socklen_t(MemoryLayout<sockaddr_in>.size)).host
            if !text.hasPrefix("127.") && !addresses.contains(text) { addresses.append(text) }
        }
        return addresses
    }
}
