extension String {
    /// ASCII case-insensitive equality, enough for header names; compares bytes, allocates nothing.
    public func equalsIgnoringCase(_ other: String) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x != y {
            let lx = x &- 65 < 26 ? x | 0x20 : x
            let ly = y &- 65 < 26 ? y | 0x20 : y
            if lx != ly { return false }
        }
        return true
    }
}
