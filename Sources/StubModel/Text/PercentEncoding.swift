/// Percent-encoding (RFC 3986 §2.1) with the set of bytes a place keeps: one function for the
/// admin API's path segments and a template's URL insertions.
public enum PercentEncoding {
    /// Unreserved characters (RFC 3986 §2.3): all a path segment the admin API builds keeps.
    public static let unreserved = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~".utf8)

    /// `value` with every byte outside `kept` written `%XX` (upper-case hex).
    public static func encode(_ value: String, keeping kept: Set<UInt8>) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if kept.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
