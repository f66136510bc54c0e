/// An immutable hash map whose changes share everything with the map they were made from but
/// the path to the changed key: a hash array mapped trie, 32 ways per level, so a change copies
/// at most one small node per level (about log₃₂ n of them) and a lookup visits as many.
///
/// What runtime routes are indexed by: a published `StubSnapshot` is never changed, and a new
/// one made for one added route must not copy the other 22,000 (issue 30: one admin write beside
/// 22,000 runtime routes took 87–269 ms when every table was rebuilt).
package struct PersistentMap<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let root: Node?
    /// Entries in the map.
    package let count: Int

    /// The empty map.
    package init() {
        root = nil
        count = 0
    }

    private init(root: Node?, count: Int) {
        self.root = root
        self.count = count
    }

    package var isEmpty: Bool { count == 0 }

    /// The value for `key`, or nil.
    package subscript(key: Key) -> Value? {
        guard let root else { return nil }
        return root.find(key, hash: Self.hash(key), shift: 0)
    }

    /// The map with `key` set to `value` (nil: without `key`).
    package func setting(_ key: Key, _ value: Value?) -> PersistentMap {
        let hash = Self.hash(key)
        guard let value else {
            guard let root, let (node, removed) = root.removing(key, hash: hash, shift: 0), removed else { return self }
            return PersistentMap(root: node.isEmpty ? nil : node, count: count - 1)
        }
        let (node, added) = (root ?? Node.empty).setting(key, value, hash: hash, shift: 0)
        return PersistentMap(root: node, count: count + (added ? 1 : 0))
    }

    /// Every entry, in no particular order.
    package var entries: [(key: Key, value: Value)] {
        var out: [(key: Key, value: Value)] = []
        out.reserveCapacity(count)
        root?.collect(into: &out)
        return out
    }

    /// Every value, in no particular order.
    package var values: [Value] { entries.map(\.value) }

    /// Calls `body` on entries until it returns false.
    package func forEach(_ body: (Key, Value) -> Bool) {
        _ = root?.visit(body)
    }

    private static func hash(_ key: Key) -> UInt64 { UInt64(bitPattern: Int64(key.hashValue)) }

    /// One node: a bitmap of the 32 slots in use and the slots, packed.
    private final class Node: Sendable {
        enum Slot: Sendable {
            case entry(hash: UInt64, key: Key, value: Value)
            /// Keys whose whole hashes are equal.
            case collision(hash: UInt64, [(key: Key, value: Value)])
            case child(Node)
        }

        let bitmap: UInt32
        let slots: [Slot]

        init(bitmap: UInt32, slots: [Slot]) {
            self.bitmap = bitmap
            self.slots = slots
        }

        static var empty: Node { Node(bitmap: 0, slots: []) }

        var isEmpty: Bool { bitmap == 0 }

        private static func index(_ hash: UInt64, _ shift: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: (hash >> shift) & 31) }

        private func position(of bit: UInt32) -> Int { (bitmap & (bit &- 1)).nonzeroBitCount }

        func find(_ key: Key, hash: UInt64, shift: UInt64) -> Value? {
            let bit = UInt32(1) << Self.index(hash, shift)
            guard bitmap & bit != 0 else { return nil }
            switch slots[position(of: bit)] {
            case .entry(_, let found, let value): return found == key ? value : nil
            case .collision(_, let list): return list.first { $0.key == key }?.value
            case .child(let node): return node.find(key, hash: hash, shift: shift + 5)
            }
        }

        /// The node with `key` set, and whether the key is new.
        func setting(_ key: Key, _ value: Value, hash: UInt64, shift: UInt64) -> (Node, Bool) {
            let bit = UInt32(1) << Self.index(hash, shift)
            let at = position(of: bit)
            guard bitmap & bit != 0 else {
                var slots = self.slots
                slots.insert(.entry(hash: hash, key: key, value: value), at: at)
                return (Node(bitmap: bitmap | bit, slots: slots), true)
            }
            var slots = self.slots
            let added: Bool
            switch slots[at] {
            case .entry(let other, let existing, let old):
                if existing == key {
                    slots[at] = .entry(hash: hash, key: key, value: value)
                    added = false
                } else if other == hash || shift >= 60 {
                    slots[at] = .collision(hash: hash, [(existing, old), (key, value)])
                    added = true
                } else {
                    let pushed = Node.empty.setting(existing, old, hash: other, shift: shift + 5).0
                    slots[at] = .child(pushed.setting(key, value, hash: hash, shift: shift + 5).0)
                    added = true
                }
            case .collision(let other, var list):
                if other == hash || shift >= 60 {
                    if let index = list.firstIndex(where: { $0.key == key }) {
                        list[index].value = value
                        added = false
                    } else {
                        list.append((key, value))
                        added = true
                    }
                    slots[at] = .collision(hash: other, list)
                } else {
                    // A different hash under the same slot: push the collision down a level.
                    let pushed = Node(bitmap: UInt32(1) << Self.index(other, shift + 5), slots: [.collision(hash: other, list)])
                    slots[at] = .child(pushed.setting(key, value, hash: hash, shift: shift + 5).0)
                    added = true
                }
            case .child(let node):
                let (changed, isNew) = node.setting(key, value, hash: hash, shift: shift + 5)
                slots[at] = .child(changed)
                added = isNew
            }
            return (Node(bitmap: bitmap, slots: slots), added)
        }

        /// The node without `key` and whether it was there; nil when nothing changed.
        func removing(_ key: Key, hash: UInt64, shift: UInt64) -> (Node, Bool)? {
            let bit = UInt32(1) << Self.index(hash, shift)
            guard bitmap & bit != 0 else { return nil }
            let at = position(of: bit)
            var slots = self.slots
            switch slots[at] {
            case .entry(_, let existing, _):
                guard existing == key else { return nil }
                slots.remove(at: at)
                return (Node(bitmap: bitmap & ~bit, slots: slots), true)
            case .collision(let other, var list):
                guard let index = list.firstIndex(where: { $0.key == key }) else { return nil }
                list.remove(at: index)
                if list.count == 1 {
                    slots[at] = .entry(hash: other, key: list[0].key, value: list[0].value)
                } else {
                    slots[at] = .collision(hash: other, list)
                }
                return (Node(bitmap: bitmap, slots: slots), true)
            case .child(let node):
                guard let (changed, removed) = node.removing(key, hash: hash, shift: shift + 5) else { return nil }
                if changed.isEmpty {
                    slots.remove(at: at)
                    return (Node(bitmap: bitmap & ~bit, slots: slots), removed)
                }
                slots[at] = .child(changed)
                return (Node(bitmap: bitmap, slots: slots), removed)
            }
        }

        func collect(into out: inout [(key: Key, value: Value)]) {
            for slot in slots {
                switch slot {
                case .entry(_, let key, let value): out.append((key, value))
                case .collision(_, let list): out += list
                case .child(let node): node.collect(into: &out)
                }
            }
        }

        /// False when `body` asked to stop.
        func visit(_ body: (Key, Value) -> Bool) -> Bool {
            for slot in slots {
                switch slot {
                case .entry(_, let key, let value): if !body(key, value) { return false }
                case .collision(_, let list): for entry in list where !body(entry.key, entry.value) { return false }
                case .child(let node): if !node.visit(body) { return false }
                }
            }
            return true
        }
    }
}
