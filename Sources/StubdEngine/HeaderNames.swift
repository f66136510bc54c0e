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
        let table = HeaderNames.table
        var length = 0
        while bytes[length] != 0 {
            length += 1
            if length > table.longest { return String(cString: name) }
        }
        let found = table.flat.withUnsafeBufferPointer { flat -> Int in
            for entry in table.firstOfLength[length]..<table.firstOfLength[length + 1] {
                let offset = table.offsets[entry]
                var index = 0
                while index < length && flat[offset + index] == bytes[index] { index += 1 }
                if index == length { return entry }
            }
            return -1
        }
        return found >= 0 ? table.strings[found] : String(cString: name)
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

    /// The known names sorted by length, their bytes end to end in `flat`; the names of length
    /// n are entries `firstOfLength[n]..<firstOfLength[n + 1]`. Separate arrays, so a lookup
    /// retains nothing but the string it returns.
    private final class Table: Sendable {
        let strings: [String]
        let offsets: [Int]
        let flat: [UInt8]
        let firstOfLength: [Int]
        let longest: Int

        init(_ names: [String]) {
            let sorted = names.sorted { $0.utf8.count < $1.utf8.count }
            longest = sorted.last?.utf8.count ?? 0
            strings = sorted
            var offsets: [Int] = [], flat: [UInt8] = []
            for name in sorted {
                offsets.append(flat.count)
                flat += name.utf8
            }
            self.offsets = offsets
            self.flat = flat
            firstOfLength = (0...longest + 1).map { length in sorted.firstIndex { $0.utf8.count >= length } ?? sorted.count }
        }
    }

    private static let table = Table(names)
}
