import Foundation
public import FixtureFiles
public import StubModel

/// One request and its answer from a HAR capture, bodies decoded (`encoding: base64`), the
/// headers that describe the capture's transfer rather than the message dropped (HTTP/2
/// pseudo-headers, `Content-Encoding` — HAR stores bodies decoded — and `Content-Length`).
public struct HARExchange: Sendable {
    /// The request's method.
    public var method: String
    /// Path and query as on the request line (`/users?page=2`).
    public var target: String
    /// The request's headers.
    public var requestHeaders: [NameValue]
    /// The request's body.
    public var requestBody: [UInt8]
    /// The response's status.
    public var status: Int
    /// The response's headers.
    public var responseHeaders: [NameValue]
    /// The response's body.
    public var responseBody: [UInt8]
}

/// Reads HAR 1.2 files as Chrome and Firefox DevTools, Charles and Proxyman export them.
public enum HARReader {
    /// What a file held: the exchanges kept, and one line per entry left out (with why).
    public struct Result: Sendable {
        /// Entries kept, in capture order.
        public var exchanges: [HARExchange] = []
        /// `entries[3] GET https://x/y: why`, per entry left out.
        public var skipped: [String] = []
        /// Every cookie value the capture holds — request and response `cookies` lists, `Cookie`
        /// and `Set-Cookie` headers — so each is scrubbed wherever it appears in any entry.
        public var cookieValues: [String] = []
    }

    static let droppedHeaders: Set<String> = ["content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"]

    /// Reads `file`; `include` keeps only entries whose URL starts with one of the prefixes.
    public static func read(_ file: String, include: [String] = []) throws(FixtureError) -> Result {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw FixtureError(file: file, field: "", problem: "cannot be read; check the path and its permissions")
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse([UInt8](data))
        } catch {
            throw FixtureError(file: file, field: "", problem: "invalid JSON at \(error)")
        }
        guard case .array(let entries)? = document["log"]?["entries"] else {
            throw FixtureError(file: file, field: "log.entries", problem: "missing; a HAR file is {\"log\": {\"entries\": [...]}}")
        }
        var result = Result()
        for (index, entry) in entries.enumerated() {
            let field = "log.entries[\(index)]"
            guard case .string(let method)? = entry["request"]?["method"], case .string(let url)? = entry["request"]?["url"] else {
                throw FixtureError(file: file, field: "\(field).request", problem: "expected method and url")
            }
            let label = "\(field) \(method) \(url)"
            if !include.isEmpty && !include.contains(where: { url.hasPrefix($0) }) {
                result.skipped.append("\(label): outside --include")
                continue
            }
            guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                result.skipped.append("\(label): not an http(s) URL")
                continue
            }
            guard case .number(let status)? = entry["response"]?["status"], status >= 100, status <= 599 else {
                result.skipped.append("\(label): no response in the capture (failed, blocked or cancelled)")
                continue
            }
            if method.uppercased() == "CONNECT" {
                result.skipped.append("\(label): a CONNECT tunnel, not a request")
                continue
            }
            let content = entry["response"]?["content"]
            var responseBody: [UInt8] = []
            if case .string(let text)? = content?["text"] {
                if content?["encoding"] == .string("base64") {
                    guard let decoded = Data(base64Encoded: text) else {
                        throw FixtureError(file: file, field: "\(field).response.content.text", problem: "encoding is base64 but the text is not valid base64")
                    }
                    responseBody = [UInt8](decoded)
                } else {
                    responseBody = Array(text.utf8)
                }
            } else if case .number(let size)? = content?["size"], size > 0 {
                result.skipped.append("\(label): the capture has no response body (\(Int(size)) bytes not saved)")
                continue
            }
            var requestBody: [UInt8] = []
            if case .string(let text)? = entry["request"]?["postData"]?["text"] {
                if entry["request"]?["postData"]?["encoding"] == .string("base64"), let decoded = Data(base64Encoded: text) {
                    requestBody = [UInt8](decoded)
                } else {
                    requestBody = Array(text.utf8)
                }
            }
            var path = components.percentEncodedPath
            if path.isEmpty { path = "/" }
            let target = path + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
            var responseHeaders = headers(entry["response"]?["headers"])
            // HAR stores bodies decoded; a tool that saved the gzip bytes themselves keeps its
            // Content-Encoding, so the recorder decodes them.
            if responseBody.starts(with: [0x1f, 0x8b]), let encoding = headers(entry["response"]?["headers"], keepEncoding: true)
                .first(where: { $0.name.lowercased() == "content-encoding" }) {
                responseHeaders.append(encoding)
            }
            result.cookieValues += cookieValues(of: entry)
            result.exchanges.append(HARExchange(method: method.uppercased(), target: target,
                                                requestHeaders: headers(entry["request"]?["headers"]), requestBody: requestBody,
                                                status: Int(status), responseHeaders: responseHeaders, responseBody: responseBody))
        }
        return result
    }

    /// The entry's cookie values: its `cookies` lists, `Cookie` pairs and `Set-Cookie` values.
    private static func cookieValues(of entry: JSONValue) -> [String] {
        var values: [String] = []
        for side in ["request", "response"] {
            if case .array(let cookies)? = entry[side]?["cookies"] {
                for cookie in cookies { if case .string(let value)? = cookie["value"] { values.append(value) } }
            }
        }
        let requestHeaders = headers(entry["request"]?["headers"])
        values += NameValue.cookies(in: requestHeaders).map(\.value)
        for header in headers(entry["response"]?["headers"]) where header.name.lowercased() == "set-cookie" {
            let pair = header.value.split(separator: ";", maxSplits: 1).first ?? ""
            if let equals = pair.firstIndex(of: "=") { values.append(String(pair[pair.index(after: equals)...])) }
        }
        return values.filter { !$0.isEmpty }
    }

    private static func headers(_ value: JSONValue?, keepEncoding: Bool = false) -> [NameValue] {
        guard case .array(let list)? = value else { return [] }
        return list.compactMap { header -> NameValue? in
            guard case .string(let name)? = header["name"], case .string(let value)? = header["value"] else { return nil }
            if keepEncoding && name.lowercased() == "content-encoding" { return NameValue(name, value) }
            if name.hasPrefix(":") || droppedHeaders.contains(name.lowercased()) { return nil }
            return NameValue(name, value)
        }
    }
}
