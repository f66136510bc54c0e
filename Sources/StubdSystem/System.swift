#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#else
#error("stubd runs on Linux (Glibc) and macOS (Darwin)")
#endif
@_exported import SystemPackage

// The libc entry points stubd uses, named once per platform. Nothing else in the package spells
// a libc call: differences between Darwin and Glibc (type spellings, missing flags) live here.
// (At file scope the names are libc's, not `System`'s own methods of the same names.)
private let sysSocket = socket
private let sysBind = bind
private let sysListen = listen
private let sysClose = close
private let sysDup = dup
private let sysDup2 = dup2
private let sysSetsockopt = setsockopt
private let sysGetsockname = getsockname
private let sysGetpeername = getpeername
#if canImport(Darwin)
private let streamType = SOCK_STREAM
#else
private let streamType = Int32(SOCK_STREAM.rawValue)
#endif

/// `fcntl` is variadic in C; Swift sees one overload per arity, so it gets a named wrapper.
private func sysFcntl(_ fd: Int32, _ command: Int32, _ value: Int32) -> Int32 { fcntl(fd, command, value) }

/// The one place stubd calls the operating system: sockets, descriptors, directories, signals
/// and limits, in the spirit of swift-nio's `System.swift`.
///
/// Every call checks its result: a failure becomes a `SystemError` naming the operation and the
/// `Errno`; `EINTR` is retried. Descriptors are plain `Int32`s because libevent takes them so.
public enum System {
    /// Runs `body` until it stops failing with `EINTR`; `-1` becomes a `SystemError`.
    @discardableResult
    static func call(_ operation: @autoclosure () -> String, _ body: () -> Int32) throws(SystemError) -> Int32 {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = Errno(rawValue: errno)
            if code == .interrupted { continue }
            throw SystemError(operation: operation(), errno: code)
        }
    }

    /// The error number the last failed call left (for callbacks from C code that failed).
    public static var lastError: Errno { Errno(rawValue: errno) }

    // MARK: - Sockets

    /// The addresses `host` resolves to for a passive (listening) TCP socket on `port`.
    public static func resolve(host: String, port: Int) throws(ResolveError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_socktype = streamType
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, result != nil else {
            throw ResolveError(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(result) }
        var addresses: [SocketAddress] = []
        var node = result
        while let info = node {
            if let address = info.pointee.ai_addr {
                addresses.append(SocketAddress(address, length: info.pointee.ai_addrlen))
            }
            node = info.pointee.ai_next
        }
        return addresses
    }

    /// A new TCP socket for `address`'s family, close-on-exec.
    public static func streamSocket(for address: SocketAddress) throws(SystemError) -> Int32 {
        let fd = try call("socket") { sysSocket(address.family, streamType, 0) }
        do {
            try setCloseOnExec(fd)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// A TCP socket of the IPv4 family that is never connected: the placeholder a reset puts in
    /// place of a client's descriptor (see `resetConnection`).
    public static func inertSocket() throws(SystemError) -> Int32 {
        let fd = try call("socket") { sysSocket(AF_INET, streamType, 0) }
        try? setCloseOnExec(fd)
        return fd
    }

    /// Lets a restarted server bind a port whose previous connections are in TIME_WAIT.
    public static func setReuseAddress(_ fd: Int32) throws(SystemError) {
        var one: Int32 = 1
        try call("setsockopt(SO_REUSEADDR)") { sysSetsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) }
    }

    /// Makes the next close send a TCP reset (RST) instead of a FIN.
    public static func setLingerZero(_ fd: Int32) throws(SystemError) {
        var noLinger = linger(l_onoff: 1, l_linger: 0)
        try call("setsockopt(SO_LINGER)") { sysSetsockopt(fd, SOL_SOCKET, SO_LINGER, &noLinger, socklen_t(MemoryLayout<linger>.size)) }
    }

    /// Sends small writes at once (no Nagle delay). Set on a listening socket, accepted sockets
    /// inherit it (Linux and the BSDs): a TLS reply written as several records must not wait
    /// for the client's delayed ACK between them.
    public static func setNoDelay(_ fd: Int32) throws(SystemError) {
        var on: Int32 = 1
        try call("setsockopt(TCP_NODELAY)") { sysSetsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size)) }
    }

    /// What a connected socket's peer has done, seen without reading anything.
    public enum PeerState: Sendable, Equatable {
        /// Bytes wait to be read.
        case sent
        /// It has sent nothing yet, and is still there.
        case silent
        /// It closed (or reset) the connection.
        case gone
    }

    /// What the peer of `fd` has done: one non-blocking `recv(MSG_PEEK)` of one byte.
    public static func peerState(_ fd: Int32) -> PeerState {
        var byte: UInt8 = 0
        let received = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if received > 0 { return .sent }
        if received == 0 { return .gone }
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK || code == EINTR ? .silent : .gone
    }

    /// Bytes written to a connected TCP socket that the peer has not acknowledged yet (sent and
    /// unsent): what a client that stopped reading leaves in the kernel. Linux: `ioctl(TIOCOUTQ)`
    /// (`SIOCOUTQ`); Darwin: `getsockopt(SO_NWRITE)`. Nil when the system does not say.
    public static func unacknowledgedBytes(_ fd: Int32) -> Int? {
        var value: Int32 = 0
        #if canImport(Darwin)
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_NWRITE, &value, &length) == 0 else { return nil }
        #else
        guard ioctl(fd, UInt(TIOCOUTQ), &value) == 0 else { return nil }
        #endif
        return Int(value)
    }

    /// Binds `fd` to `address`.
    public static func bind(_ fd: Int32, to address: SocketAddress) throws(SystemError) {
        _ = try address.withSockaddr { pointer, length throws(SystemError) in
            try call("bind") { sysBind(fd, pointer, length) }
        }
    }

    /// Starts listening with room for `backlog` pending connections.
    public static func listen(_ fd: Int32, backlog: Int32) throws(SystemError) {
        try call("listen") { sysListen(fd, backlog) }
    }

    /// The port a bound socket listens on (the real one after binding port 0).
    public static func boundPort(_ fd: Int32) throws(SystemError) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = try withUnsafeMutablePointer(to: &storage) { pointer throws(SystemError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemError) in
                try call("getsockname") { sysGetsockname(fd, address, &length) }
            }
        }
        return SocketAddress(storage: storage).port ?? 0
    }

    /// The port of a connected socket's peer; nil when it has none (or is not TCP).
    public static func peerPort(_ fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sysGetpeername(fd, $0, &length) }
        }
        return got == 0 ? SocketAddress(storage: storage).port : nil
    }

    /// Sets `O_NONBLOCK`, as event loops need.
    public static func setNonBlocking(_ fd: Int32) throws(SystemError) {
        let flags = try call("fcntl(F_GETFL)") { sysFcntl(fd, F_GETFL, 0) }
        try call("fcntl(F_SETFL)") { sysFcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Sets `FD_CLOEXEC`, so a child process never inherits the descriptor.
    public static func setCloseOnExec(_ fd: Int32) throws(SystemError) {
        let flags = try call("fcntl(F_GETFD)") { sysFcntl(fd, F_GETFD, 0) }
        try call("fcntl(F_SETFD)") { sysFcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
    }

    // MARK: - Descriptors

    /// A second descriptor for the same open socket or file, close-on-exec.
    public static func duplicate(_ fd: Int32) throws(SystemError) -> Int32 {
        let copy = try call("dup") { sysDup(fd) }
        try? setCloseOnExec(copy)
        return copy
    }

    /// Points descriptor number `target` at `source`'s file, atomically closing what `target`
    /// referred to (the last close of a socket with linger 0 sends its reset).
    public static func replace(_ target: Int32, with source: Int32) throws(SystemError) {
        try call("dup2") { sysDup2(source, target) }
    }

    /// Closes a descriptor. Errors are not reported: after `close` the number is released
    /// whatever it returns (POSIX leaves retrying after EINTR unspecified; Linux must not retry).
    public static func close(_ fd: Int32) {
        _ = sysClose(fd)
    }

    /// Shuts a connected socket down in both directions: the peer sees the end of the stream and
    /// whoever reads the descriptor next sees EOF (how a connection owned by libevent is ended
    /// from outside it).
    public static func shutdown(_ fd: Int32) {
        shutdown(fd, how: SHUT_RDWR)
    }

    /// Ends the sending half of a socket (a FIN), still reading: a lingering close, so bytes the
    /// client is still sending do not turn the close into a reset that destroys the answer.
    public static func shutdownWrites(_ fd: Int32) {
        shutdown(fd, how: SHUT_WR)
    }

    /// Up to `count` bytes from `fd` as soon as any are there (one `read`, `EINTR` retried);
    /// empty at the end of the input or on an error.
    public static func readSome(_ fd: Int32, upTo count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            while true {
                let got = read(fd, buffer.baseAddress, count)
                if got < 0 && errno == EINTR { continue }
                filled = max(0, got)
                return
            }
        }
    }

    /// Stops a listening socket (every descriptor of it, dups included) from taking connections:
    /// on Linux new ones are refused at once, as if nothing listened (a drain's "no new
    /// connections"); elsewhere it may do nothing, and accepting is only turned off.
    public static func stopListening(_ fd: Int32) {
        shutdown(fd, how: SHUT_RD)
    }

    private static func shutdown(_ fd: Int32, how: some BinaryInteger) {
        #if canImport(Darwin)
        _ = Darwin.shutdown(fd, Int32(how))
        #else
        _ = Glibc.shutdown(fd, Int32(how))
        #endif
    }

    // MARK: - Signals and limits

    /// The open-file limit (soft, hard).
    public static func openFileLimit() -> (soft: Int, hard: Int) {
        var limit = rlimit()
        #if canImport(Darwin)
        guard getrlimit(RLIMIT_NOFILE, &limit) == 0 else { return (256, 256) }
        #else
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (256, 256) }
        #endif
        return (Int(clamping: limit.rlim_cur), Int(clamping: limit.rlim_max))
    }

    /// Raises the soft open-file limit to the hard limit (a server should not run out of
    /// descriptors at an arbitrary default of 1,024) and returns the limit now in force. macOS
    /// refuses values above `OPEN_MAX` for an unlimited hard limit, so that case is capped.
    @discardableResult
    public static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        #if canImport(Darwin)
        let resource = RLIMIT_NOFILE
        #else
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 256 }
        var wanted = limit.rlim_max
        #if canImport(Darwin)
        wanted = min(wanted, rlim_t(OPEN_MAX))
        #endif
        if wanted > limit.rlim_cur {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// Makes the process ignore `signal` (SIGPIPE: a write to a vanished client must be an error,
    /// not the end of the server; SIGINT/SIGTERM before a dispatch source takes them over).
    public static func ignore(signal number: Int32) {
        _ = signal(number, SIG_IGN)
    }

    /// The signal numbers stubd stops on, with their names.
    public static let terminationSignals: [(number: Int32, name: String)] = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")]

    /// The SIGPIPE number.
    public static let brokenPipeSignal: Int32 = SIGPIPE

    /// Whether process `pid` still exists (`kill(pid, 0)`: no signal sent; EPERM means it exists
    /// but belongs to someone else).
    public static func processExists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}

/// A failed system call: which operation and why, e.g. `bind: Address already in use`.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    /// The call that failed (`bind`, `setsockopt(SO_LINGER)`).
    public let operation: String
    /// The error number it set.
    public let errno: Errno

    /// Creates an error.
    public init(operation: String, errno: Errno) {
        self.operation = operation
        self.errno = errno
    }

    /// `operation: reason`.
    public var description: String { "\(operation): \(errno)" }
}

/// A host name that did not resolve.
public struct ResolveError: Error, Equatable {
    /// The name as given.
    public let host: String
    /// The resolver's reason.
    public let reason: String
}
