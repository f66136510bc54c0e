import StubModel
import Foundation
/// Percent-encoding for a value a template inserts into a URL (a webhook's), chosen by where it
/// lands in what was rendered before it: before the authority ends it is inserted as it is (a
/// fixture may take a whole callback URL from the request); in the path it is one segment's
/// text (`/`, `?`, `#`, `%` encoded, so a request's `a%3Fx=1` cannot add a query); in the query,
/// one name's or value's (`&`, `=`, `+`, `#`, `%` encoded too).
package enum URLComponentEncoding {
    /// Where an insertion lands.
    package enum Place: Equatable {
        case authority, path, query, fragment
    }

    /// Where text appended to `prefix` lands.
    package static func place(after prefix: String) -> Place {
        if prefix.contains("#") { return .fragment }
        if prefix.contains("?") { return .query }
        guard let schemeEnd = prefix.range(of: "://") else { return .authority }
        return prefix[schemeEnd.upperBound...].contains("/") ? .path : .authority
    }

    /// `value` encoded for where it lands after `prefix`.
    package static func encode(_ value: String, after prefix: String) -> String {
        switch place(after: prefix) {
        case .authority: return value
        case .path: return PercentEncoding.encode(value, keeping: pathKept)
        case .query, .fragment: return PercentEncoding.encode(value, keeping: queryKept)
        }
    }

    /// Unreserved characters (RFC 3986 §2.3) and the sub-delimiters a segment may carry.
    private static let pathKept = PercentEncoding.unreserved.union("!$'()*,;:@".utf8)
    /// Unreserved characters and those a query value may carry unencoded.
    private static let queryKept = pathKept.union("/?".utf8)
}
