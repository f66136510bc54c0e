#if canImport(Darwin)
import Darwin
import MachO
#elseif canImport(Glibc)
import Glibc
#endif

extension System {
    /// The running program's file, through no symbolic link: where `stubd` finds the programs
    /// installed beside it (`stubd-openapi`). Linux reads `/proc/self/exe`; macOS asks dyld
    /// (`_NSGetExecutablePath`). Nil if neither answers. (Foundation's `Bundle.main` would do, but
    /// it pulls CoreFoundation's bundle code into the statically linked dist binary.)
    public static func executablePath() -> String? {
        #if canImport(Darwin)
        var size: UInt32 = 0
        _ = _NSGetExecutablePath(nil, &size)
        var buffer = [CChar](repeating: 0, count: Int(size) + 1)
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        guard let resolved = realpath(buffer, nil) else { return String(cString: buffer) }
        defer { free(resolved) }
        return String(cString: resolved)
        #else
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #endif
    }
}
