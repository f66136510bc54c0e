public import Synchronization

/// One immutable object that every loop reads for each request and that changes rarely (the
/// route snapshot, the list of exchange observers): a reader takes it with a retain under an
/// uncontended lock, a writer replaces it whole.
///
/// swift-atomics' `ManagedAtomic` of a reference made each read a double-word compare-and-swap
/// (about 200–400 instructions under callgrind, five a request); a futex mutex held for one retain
/// costs a few dozen. The lock is never held while anything else runs, so loops never wait on
/// each other for longer than that retain.
///
/// Public, not `package`, so `value` is inlined into the reading module (this toolchain inlines
/// no `package` declaration across modules); StubdEngine is no product.
public final class PublishedReference<Value: AnyObject & Sendable>: Sendable {
    @usableFromInline let slot: Mutex<Value>

    package init(_ value: Value) { slot = Mutex(value) }

    /// The value published last; hold on to it for as long as one answer needs it.
    @inlinable public var value: Value { slot.withLock { $0 } }

    /// Makes `value` the one readers get from now on.
    package func publish(_ value: Value) {
        // The old value is released outside the lock (its deinit may free a whole route table).
        let old = slot.withLock { current -> Value in
            let old = current
            current = value
            return old
        }
        _ = old
    }

    /// Replaces the value with what `change` makes of it, readers never seeing a half-made one;
    /// writers are serialized by the same lock.
    package func update(_ change: (Value) -> Value) {
        let old = slot.withLock { current -> Value in
            let old = current
            current = change(current)
            return old
        }
        _ = old
    }
}
