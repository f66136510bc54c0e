import CZlib

/// Undoes an HTTP content coding (`Content-Encoding: gzip`, `x-gzip`, `deflate`) with zlib, so a
/// recorded body is stored as the bytes the client's library would hand to the app. The only
/// code that calls zlib; no C type leaves it.
public enum ContentDecoding {
    /// Bodies are never inflated beyond this (a compressed bomb ends as "not decodable").
    public static let maximumDecodedBytes = 256 << 20

    /// `body` decoded from `encoding`, or nil when the coding is unknown or the bytes are not
    /// valid for it. `deflate` accepts both the zlib-wrapped form RFC 9110 names and the raw
    /// form some servers send.
    public static func decode(_ body: [UInt8], encoding: String, limit: Int = maximumDecodedBytes) -> [UInt8]? {
        switch encoding.lowercased() {
        case "identity": return body
        case "gzip", "x-gzip": return inflate(body, windowBits: 15 + 16, limit: limit)
        case "deflate": return inflate(body, windowBits: 15, limit: limit) ?? inflate(body, windowBits: -15, limit: limit)
        default: return nil
        }
    }

    /// Whether `decode` knows `encoding`.
    public static func knows(_ encoding: String) -> Bool {
        ["identity", "gzip", "x-gzip", "deflate"].contains(encoding.lowercased())
    }

    /// zlib's inflate over the whole input; nil unless it ends exactly at the stream's end.
    private static func inflate(_ input: [UInt8], windowBits: Int32, limit: Int) -> [UInt8]? {
        guard !input.isEmpty else { return [] }
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = input
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let result: Int32 = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return Z_MEM_ERROR }
                if result == Z_STREAM_END { return stream.avail_in == 0 ? Z_STREAM_END : Z_DATA_ERROR }
                if result != Z_OK { return result }
                if stream.avail_in == 0 && produced == 0 { return Z_BUF_ERROR }
            }
        }
        return status == Z_STREAM_END ? output : nil
    }
}
