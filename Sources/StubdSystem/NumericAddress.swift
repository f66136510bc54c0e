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
