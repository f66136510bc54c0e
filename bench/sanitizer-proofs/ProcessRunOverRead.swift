// Proof for bench/asan.supp: swift-corelibs-foundation's Process.run over-reads readdir records.
//   swiftc -sanitize=address bench/sanitizer-proofs/ProcessRunOverRead.swift -o /tmp/proof && ASAN_OPTIONS=detect_leaks=0 /tmp/proof
// prints "heap-buffer-overflow ... in findMaximumOpenFromProcSelfFD" from the toolchain's libFoundation.so,
// with no stubd code involved.
import Foundation
// Enough descriptors that /proc/self/fd fills readdir's 32 KiB buffer, then start any process:
// Foundation's Process.run walks /proc/self/fd copying whole `dirent` structs.
var limit = rlimit(rlim_cur: 8192, rlim_max: 8192)
setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
var held: [Int32] = []
for _ in 0..<3000 { held.append(open("/dev/null", O_RDONLY)) }
let process = Process()
process.executableURL = URL(fileURLWithPath: "/bin/true")
try process.run()
process.waitUntilExit()
print("exit", process.terminationStatus)
