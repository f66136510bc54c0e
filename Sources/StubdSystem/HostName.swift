/// The one reading of a host as a request, a route or a proxy target names it — `Host`,
/// `X-Stubd-Host`, an authority `host:port` or `[v6]:port`, a fixture's `host` — so every part of
/// stubd compares the same name: lower-cased, without port or IPv6 brackets, without the final
/// dot of an absolute name (`b.example.com.` is `b.example.com`, RFC 1034 §3.1). Names are not
/// converted to punycode: an internationalised name compares as written, lower-cased.
///
/// Every request's arrival reads its host, so an ASCII host (every one a client sends on the wire)
/// is read byte by byte into a new small string; only a name with other characters goes through
/// `String`'s Unicode lower-casing.
public enum HostName {
    /// The host of `text`, or nil when it names none (empty, `:80`, an unclosed `[`).
    public static func normalized(_ text: String) -> String? {
        var bytes = text
        return bytes.withUTF8 { utf8 in utf8.contains { $0 >= 0x80 } ? unicode(text) : ascii(utf8) }
    }

    /// The host of a part of a string (an authority cut from a URL).
    public static func normalized(_ text: Substring) -> String? {
        normalized(String(text))
    }

    private static func ascii<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> String? {
        var start = bytes.startIndex, end = bytes.endIndex
        func blank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        while start < end, blank(bytes[start]) { start = bytes.index(after: start) }
        while start < end, blank(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        if start < end, bytes[start] == UInt8(ascii: "[") {
            guard let close = bytes[start..<end].firstIndex(of: UInt8(ascii: "]")) else { return nil }
            start = bytes.index(after: start)
            end = close
        } else if let colon = bytes[start..<end].firstIndex(of: UInt8(ascii: ":")),
                  bytes[bytes.index(after: colon)..<end].allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) {
            end = colon
        }
        while start < end, bytes[bytes.index(before: end)] == UInt8(ascii: ".") { end = bytes.index(before: end) }
        guard start < end else { return nil }
        let host = bytes[start..<end]
        return String(unsafeUninitializedCapacity: host.count) { out in
            for (offset, byte) in host.enumerated() { out[offset] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte }
            return host.count
        }
    }

    /// The same reading, for a name with characters beyond ASCII (lower-cased as Unicode says).
    private static func unicode(_ text: String) -> String? {
        var host = Substring(text.lowercased())
        while host.first == " " || host.first == "\t" { host = host.dropFirst() }
        while host.last == " " || host.last == "\t" { host = host.dropLast() }
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.firstIndex(of: ":"), host[host.index(after: colon)...].allSatisfy(\.isNumber) {
            host = host[..<colon]
        }
        while host.hasSuffix(".") { host = host.dropLast() }
        return host.isEmpty ? nil : String(host)
    }
}
