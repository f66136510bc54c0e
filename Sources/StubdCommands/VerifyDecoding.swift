import Foundation
import StubModel

/// `stubd verify`'s decode check: the fixture's body and the live body decoded with the type a
/// target names (`ResponseDecoding`), with the app's decoder. A failure is told by path and kind —
/// "expected Int, got string" — never with the live value (it may be a secret): a decoder's own
/// message is shown only with the value at the path replaced by its kind.
enum VerifyDecoding {
    /// The report's line, or nil when both decode.
    static func check(_ type: any Decodable.Type, decoder: JSONDecoder, fixture: [UInt8], live: [UInt8]) -> String? {
        let name = String(describing: type)
        let fixtureFailure = failure(decoding: type, with: decoder, from: fixture)
        let liveFailure = failure(decoding: type, with: decoder, from: live)
        switch (fixtureFailure, liveFailure) {
        case (nil, nil): return nil
        case (nil, let live?): return "decode \(name): fixture decodes; live body fails at \(live)"
        case (let fixture?, nil): return "decode \(name): live body decodes; fixture fails at \(fixture)"
        case (let fixture?, let live?): return "decode \(name): fixture fails at \(fixture); live body fails at \(live)"
        }
    }

    /// Where and why `bytes` do not decode as `type` (nil: they do).
    static func failure(decoding type: any Decodable.Type, with decoder: JSONDecoder, from bytes: [UInt8]) -> String? {
        func decode<T: Decodable>(_ type: T.Type) throws { _ = try decoder.decode(type, from: Data(bytes)) }
        do {
            try decode(type)
            return nil
        } catch let error as DecodingError {
            return describe(error, in: try? JSONParser.parse(bytes))
        } catch {
            return "$: \(type) refused it (\(Swift.type(of: error)))"
        }
    }

    /// `$.items[3].price: expected Double, got string`.
    static func describe(_ error: DecodingError, in document: JSONValue?) -> String {
        switch error {
        case .typeMismatch(let expected, let context):
            return "\(path(context.codingPath)): expected \(expected), got \(kind(at: context.codingPath, in: document))"
        case .valueNotFound(let expected, let context):
            return "\(path(context.codingPath)): expected \(expected), got \(kind(at: context.codingPath, in: document))"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .dataCorrupted(let context):
            var message = context.debugDescription
            // A decoder's message may quote the value (an enum's raw value): its kind instead.
            if let value = value(at: context.codingPath, in: document), case .string(let text) = value, !text.isEmpty {
                message = message.replacingOccurrences(of: text, with: "(a string)")
            }
            return "\(path(context.codingPath)): \(message)"
        @unknown default:
            return "$: \(error.localizedDescription)"
        }
    }

    /// A coding path as a JSONPath: `$.items[3].price`.
    static func path(_ keys: [any CodingKey]) -> String {
        keys.reduce("$") { text, key in
            if let index = key.intValue { return text + "[\(index)]" }
            return text + "." + key.stringValue
        }
    }

    static func value(at keys: [any CodingKey], in document: JSONValue?) -> JSONValue? {
        var current = document
        for key in keys {
            switch current {
            case .object(let members)?: current = members.first { $0.key == key.stringValue }?.value
            case .array(let items)?:
                guard let index = key.intValue, items.indices.contains(index) else { return nil }
                current = items[index]
            default: return nil
            }
        }
        return current
    }

    static func kind(at keys: [any CodingKey], in document: JSONValue?) -> String {
        switch value(at: keys, in: document) {
        case .string?: return "string"
        case .number?: return "number"
        case .bool?: return "boolean"
        case .null?: return "null"
        case .object?: return "object"
        case .array?: return "array"
        case nil: return "nothing"
        }
    }
}
