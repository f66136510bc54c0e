// URLRequest is Foundation's on Darwin and FoundationNetworking's on Linux: the public import is
// the module that declares it.
#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// Alamofire 5's `URLEncoding`, rule for rule: sorted top-level keys, `key[]` arrays, numeric
/// bools, the `afURLQueryAllowed` escaping set, and method-dependent placement.
///
/// The exact bytes matter because stubd has to recognise what a real Moya client sends.
public struct URLEncoding: ParameterEncoding {
    /// Where the encoded parameters go.
    public enum Destination: Sendable {
        /// Query for GET, HEAD and DELETE; body for every other method.
        case methodDependent
        /// Always the query, appended to any query the URL already has.
        case queryString
        /// Always the body, with the form Content-Type when none is set.
        case httpBody

        func encodesParametersInURL(for method: Method) -> Bool {
            switch self {
            case .methodDependent: return [.get, .head, .delete].contains(method)
            case .queryString: return true
            case .httpBody: return false
            }
        }
    }

    /// How array elements are keyed.
    public enum ArrayEncoding: Sendable {
        /// `key[]=a&key[]=b` (the default).
        case brackets
        /// `key=a&key=b`.
        case noBrackets
        /// `key[0]=a&key[1]=b`.
        case indexInBrackets
        /// Your own key for each index.
        case custom(@Sendable (_ key: String, _ index: Int) -> String)

        func encode(key: String, atIndex index: Int) -> String {
            switch self {
            case .brackets: return "\(key)[]"
            case .noBrackets: return key
            case .indexInBrackets: return "\(key)[\(index)]"
            case .custom(let encoding): return encoding(key, index)
            }
        }
    }

    /// How booleans are written.
    public enum BoolEncoding: Sendable {
        /// `1` / `0` (the default).
        case numeric
        /// `true` / `false`.
        case literal

        func encode(value: Bool) -> String {
            switch self {
            case .numeric: return value ? "1" : "0"
            case .literal: return value ? "true" : "false"
            }
        }
    }

    /// Method-dependent destination, brackets, numeric bools.
    public static var `default`: URLEncoding { URLEncoding() }
    /// Always the query string.
    public static var queryString: URLEncoding { URLEncoding(destination: .queryString) }
    /// Always the body.
    public static var httpBody: URLEncoding { URLEncoding(destination: .httpBody) }

    /// Where parameters go.
    public let destination: Destination
    /// How arrays are keyed.
    public let arrayEncoding: ArrayEncoding
    /// How bools are written.
    public let boolEncoding: BoolEncoding

    /// Creates an encoding; the defaults are Alamofire's.
    public init(destination: Destination = .methodDependent, arrayEncoding: ArrayEncoding = .brackets,
                boolEncoding: BoolEncoding = .numeric) {
        self.destination = destination
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
    }

    /// Applies the parameters; an empty dictionary leaves the URL alone but still writes an empty
    /// form body (and its Content-Type) when the destination is the body.
    public func encode(_ urlRequest: any URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
        var request = try urlRequest.asURLRequest()
        guard let parameters else { return request }
        let method = Method(rawValue: request.httpMethod ?? "GET")
        if destination.encodesParametersInURL(for: method) {
            guard let url = request.url else { throw ParameterEncodingError.missingURL }
            if var components = URLComponents(url: url, resolvingAgainstBaseURL: false), !parameters.isEmpty {
                let existing = components.percentEncodedQuery.map { $0 + "&" } ?? ""
                components.percentEncodedQuery = existing + query(parameters)
                request.url = components.url
            }
        } else {
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue("application/x-www-form-urlencoded; charset=utf-8", forHTTPHeaderField: "Content-Type")
            }
            request.httpBody = Data(query(parameters).utf8)
        }
        return request
    }

    /// The `k=v&k=v` text for the parameters, top-level keys sorted.
    public func query(_ parameters: [String: Any]) -> String {
        var components: [(String, String)] = []
        for key in parameters.keys.sorted(by: <) {
            components += queryComponents(fromKey: key, value: parameters[key]!)
        }
        return components.map { "\($0)=\($1)" }.joined(separator: "&")
    }

    /// The escaped pairs for one key; nested dictionaries keep their (random) iteration order.
    public func queryComponents(fromKey key: String, value: Any) -> [(String, String)] {
        var components: [(String, String)] = []
        switch value {
        case let dictionary as [String: Any]:
            for (nestedKey, value) in dictionary {
                components += queryComponents(fromKey: "\(key)[\(nestedKey)]", value: value)
            }
        case let array as [Any]:
            for (index, value) in array.enumerated() {
                components += queryComponents(fromKey: arrayEncoding.encode(key: key, atIndex: index), value: value)
            }
        case let number as NSNumber:
            if number.isBool {
                components.append((URLEncoding.escape(key), URLEncoding.escape(boolEncoding.encode(value: number.boolValue))))
            } else {
                components.append((URLEncoding.escape(key), URLEncoding.escape("\(number)")))
            }
        case let bool as Bool:
            components.append((URLEncoding.escape(key), URLEncoding.escape(boolEncoding.encode(value: bool))))
        default:
            components.append((URLEncoding.escape(key), URLEncoding.escape("\(value)")))
        }
        return components
    }

    /// Percent-escapes everything but letters, digits, `-._~`, `/` and `?` (Alamofire's set).
    public static func escape(_ string: String) -> String {
        string.addingPercentEncoding(withAllowedCharacters: .afURLQueryAllowed) ?? string
    }
}

extension CharacterSet {
    /// RFC 3986 query characters minus the general and sub-delimiters, except `?` and `/`.
    static let afURLQueryAllowed: CharacterSet = {
        let encodableDelimiters = CharacterSet(charactersIn: ":#[]@!$&'()*+,;=")
        return CharacterSet.urlQueryAllowed.subtracting(encodableDelimiters)
    }()
}

extension NSNumber {
    /// Alamofire's Bool test: an NSNumber made from a Bool has objCType `c`.
    var isBool: Bool { String(cString: objCType) == "c" }
}
