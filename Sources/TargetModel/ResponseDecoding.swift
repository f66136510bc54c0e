public import Foundation

/// A target that names the type the app decodes its answer into, so `stubd verify` can ask the
/// app's own decoder whether the fixture and the real API's answer still decode — the failure a
/// user would see, located by path ("live body fails at `$.items[3].price`: expected Double, got
/// string"), where a shape check only says a field changed. Adopted in the targets package, not
/// in the app's API file (which compiles unchanged against real Moya):
///
/// ```swift
/// extension AccountAPI: ResponseDecoding {
///     var responseType: (any Decodable.Type)? {
///         switch self {
///         case .profile, .updateProfile: return Profile.self
///         default: return nil
///         }
///     }
/// }
/// ```
public protocol ResponseDecoding {
    /// The type this target's answer is decoded as; nil (the default) checks the shape only.
    var responseType: (any Decodable.Type)? { get }
    /// The decoder the app decodes with (its key and date strategies); a plain `JSONDecoder`
    /// by default.
    var responseDecoder: JSONDecoder { get }
}

extension ResponseDecoding {
    /// No type: the shape only.
    public var responseType: (any Decodable.Type)? { nil }
    /// A plain `JSONDecoder`.
    public var responseDecoder: JSONDecoder { JSONDecoder() }
}
