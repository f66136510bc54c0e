import Testing
@testable import StubModel
import StubdTestTags

/// The persistent map agrees with a Dictionary under random changes, and a change never alters the
/// map it was made from — what lets a published snapshot share it.
@Suite(.tags(.inMemory))
struct PersistentMapTests {
    /// A key whose hash the test chooses, to force collisions at every depth.
    struct Key: Hashable, Sendable {
        let id: Int
        let hash: Int
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        static func == (a: Key, b: Key) -> Bool { a.id == b.id }
    }

    @Test(arguments: [0, 7, 1_000_003])
    func randomChangesAgreeWithADictionary(hashSpread: Int) {
        var generator = SystemRandomNumberGenerator()
        var model: [Key: Int] = [:]
        var map = PersistentMap<Key, Int>()
        var versions: [(PersistentMap<Key, Int>, [Key: Int])] = []
        for step in 0..<20_000 {
            let id = Int.random(in: 0..<3_000, using: &generator)
            // hashSpread 0: every key collides; 7: seven hashes; else: nearly unique.
            let key = Key(id: id, hash: hashSpread == 0 ? 42 : id % hashSpread)
            if Bool.random(using: &generator) {
                model[key] = step
                map = map.setting(key, step)
            } else {
                model[key] = nil
                map = map.setting(key, nil)
            }
            if step % 2_000 == 0 { versions.append((map, model)) }
        }
        #expect(map.count == model.count)
        for (key, value) in model { #expect(map[key] == value) }
        #expect(Dictionary(uniqueKeysWithValues: map.entries.map { ($0.key, $0.value) }) == model)
        // Every earlier version is still what it was.
        for (old, oldModel) in versions {
            #expect(old.count == oldModel.count)
            #expect(Dictionary(uniqueKeysWithValues: old.entries.map { ($0.key, $0.value) }) == oldModel)
        }
    }

    @Test func removingWhatIsNotThereChangesNothing() {
        let map = PersistentMap<String, Int>().setting("a", 1)
        #expect(map.setting("b", nil).count == 1)
        #expect(map.setting("a", nil).isEmpty)
        #expect(map.setting("a", 2)["a"] == 2 && map["a"] == 1)
    }
}
