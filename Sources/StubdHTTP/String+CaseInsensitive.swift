extension String {
    /// ASCII case-insensitive equality, enough for header names; compares bytes, allocates nothing.
    /// Every header lookup of every request runs it, so it reads the two strings' bytes in place
    /// (native strings are contiguous) rather than through a generic iterator.
    public func equalsIgnoringCase(_ other: String) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        if let equal = a.withContiguousStorageIfAvailable({ x in b.withContiguousStorageIfAvailable { y in Self.equalsIgnoringCase(x, y) } }) {
            return equal ?? Self.equalsIgnoringCase(x: a, b)
        }
        return Self.equalsIgnoringCase(x: a, b)
    }

    private static func equalsIgnoringCase(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<a.count where a[index] != b[index] {
            if lower(a[index]) != lower(b[index]) { return false }
        }
        return true
    }

    /// The same for a string whose bytes are not in one piece (a bridged one).
    private static func equalsIgnoringCase(x a: UTF8View, _ b: UTF8View) -> Bool {
        var i = a.startIndex, j = b.startIndex
        while i != a.endIndex {
            if a[i] != b[j], lower(a[i]) != lower(b[j]) { return false }
            a.formIndex(after: &i)
            b.formIndex(after: &j)
        }
        return true
    }

    private static func lower(_ byte: UInt8) -> UInt8 { byte &- 65 < 26 ? byte | 0x20 : byte }
}
