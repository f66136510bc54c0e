import Foundation
import Moya

// The types the app decodes each answer into, so `stubd-targets verify --upstream …` asks the
// app's own decoder whether the fixture and the real API's answer still decode (a file the team
// adds beside stubd init's main.swift; the app's API file stays as it is).
extension AccountAPI: ResponseDecoding {
    var responseType: (any Decodable.Type)? {
        switch self {
        case .profile, .updateProfile: return Profile.self
        case .search: return SearchResults.self
        case .avatar: return nil
        }
    }
}
