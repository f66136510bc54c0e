// Proof for bench/tsan.supp: ThreadSanitizer (Swift 6.3.1, Linux) does not see Synchronization.Mutex.
//   swiftc -sanitize=thread bench/sanitizer-proofs/MutexInvisibleToTSan.swift -o /tmp/proof && /tmp/proof
// reports "Swift access race" inside withLock although every access holds the lock: Mutex is a
// futex the TSan runtime does not intercept.
import Foundation
import Synchronization

// Two threads change one value, only ever inside Mutex.withLock.
final class Counter: Sendable {
    private let state = Mutex([String: Int]())
    func bump(_ key: String) { state.withLock { $0[key, default: 0] += 1 } }
    var total: Int { state.withLock { $0.values.reduce(0, +) } }
}
let counter = Counter()
let threads = (0..<2).map { index in
    Thread { for _ in 0..<10_000 { counter.bump("k") } }
}
threads.forEach { $0.start() }
while counter.total < 20_000 { usleep(1000) }
print("total", counter.total)
