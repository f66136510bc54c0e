import StubdCLI

// Every target the app calls; payload cases with the values the stubs should answer for.
Stubd.main(targets: [
    AccountAPI.profile,
    AccountAPI.updateProfile(name: "Ada"),
    AccountAPI.avatar(id: 7),
    AccountAPI.search(query: "swift"),
    LegacyAPI.profile,
    MediaAPI.feed(page: 1),
    MediaAPI.upload,
])
