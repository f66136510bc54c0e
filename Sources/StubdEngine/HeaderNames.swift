/// The header names clients send most, as Swift strings made once: a request's names are looked
/// up here before being copied out of evhttp.
///
/// `String(cString:)` measures, validates and builds a string for every name of every request
/// (about 200 instructions each under callgrind); comparing the bytes with a few known names of
/// the same length costs a fraction of that. Names are matched exactly, case included, so the
/// string is the one the client sent.
enum HeaderNames {
    /// The string for the NUL-terminated `name`: a known one when its bytes are, else a copy.
    static func string(_ name: UnsafePointer<CChar>) -> String {
        let bytes = UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self)
        var length = 0
        while bytes[length] != 0 {
            length += 1
            if length > longest { return String(cString: name) }
        }
        for known in byLength[length] where known.bytes.withUnsafeBufferPointer({ equal($0, bytes) }) {
            return known.string
        }
        return String(cString: name)
    }

    private static func equal(_ known: UnsafeBufferPointer<UInt8>, _ bytes: UnsafePointer<UInt8>) -> Bool {
        for index in known.indices where known[index] != bytes[index] { return false }
        return true
    }

    private struct Known {
        let string: String
        let bytes: [UInt8]
    }

    private static let names = [
        "Host", "User-Agent", "Accept", "Accept-Encoding", "Accept-Language", "Connection", "Content-Type", "Content-Length",
        "Authorization", "Cookie", "Origin", "Referer", "Cache-Control", "Pragma", "If-None-Match", "If-Modified-Since",
        "Sec-Fetch-Site", "Sec-Fetch-Mode", "Sec-Fetch-Dest", "Upgrade-Insecure-Requests", "X-Stubd-Session", "X-Requested-With",
        "Transfer-Encoding", "Expect",
        "host", "user-agent", "accept", "accept-encoding", "accept-language", "connection", "content-type", "content-length",
        "authorization", "cookie", "origin", "referer", "cache-control", "pragma", "sec-fetch-site", "sec-fetch-mode",
        "sec-fetch-dest", "x-stubd-session", "transfer-encoding",
    ]

    private static let longest = names.map(\.utf8.count).max() ?? 0

    /// The known names by their length in bytes.
    private static let byLength: [[Known]] = {
        var table = [[Known]](repeating: [], count: longest + 1)
        for name in names { table[name.utf8.count].append(Known(string: name, bytes: Array(name.utf8))) }
        return table
    }()
}
