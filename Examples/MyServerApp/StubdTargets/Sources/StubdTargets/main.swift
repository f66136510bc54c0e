import Foundation
import StubdCLI

// Every target stubd serves. Made by `stubd init` from the app's API files (linked beside this
// file). Cases with associated values need the values the stubs should answer for: fill them in
// and uncomment them.
Stubd.main(targets: [
    AccountAPI.profile,
    AccountAPI.updateProfile(name: "Ada"),
    AccountAPI.avatar(id: 7),
    AccountAPI.search(query: "swift"),
    LegacyAPI.profile,
    MediaAPI.upload,
    MediaAPI.feed(page: 1),
])
