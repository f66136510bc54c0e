import Foundation
import Testing
@testable import Recording
import StubdTestTags

/// zlib through `ContentDecoding`: the three forms servers send, and refusals for bytes that are
/// not what their header says (bodies Python's gzip/zlib modules wrote).
@Suite(.tags(.inMemory)) struct ContentDecodingTests {
    static func bytes(_ base64: String) -> [UInt8] { [UInt8](Data(base64Encoded: base64)!) }

    @Test func gzipZlibAndRawDeflateAreDecoded() {
        #expect(ContentDecoding.decode(Self.bytes("H4sIAAAAAAACA8tIzcnJV0ivyiwAABlq0t8KAAAA"), encoding: "gzip") == Array("hello gzip".utf8))
        #expect(ContentDecoding.decode(Self.bytes("H4sIAAAAAAACA8tIzcnJV0ivyiwAABlq0t8KAAAA"), encoding: "X-GZIP") == Array("hello gzip".utf8))
        #expect(ContentDecoding.decode(Self.bytes("eJzLSM3JyVeoyslMAgAVlQPm"), encoding: "deflate") == Array("hello zlib".utf8))
        #expect(ContentDecoding.decode(Self.bytes("y0jNyclXKEosBwA="), encoding: "deflate") == Array("hello raw".utf8))
        #expect(ContentDecoding.decode([1, 2, 3], encoding: "identity") == [1, 2, 3])
    }

    @Test func badOrUnknownBodiesAreNotDecoded() {
        #expect(ContentDecoding.decode(Array("not gzip".utf8), encoding: "gzip") == nil)
        let truncated = Array(Self.bytes("H4sIAAAAAAACA8tIzcnJV0ivyiwAABlq0t8KAAAA").dropLast(6))
        #expect(ContentDecoding.decode(truncated, encoding: "gzip") == nil)
        let trailing = Self.bytes("H4sIAAAAAAACA8tIzcnJV0ivyiwAABlq0t8KAAAA") + [0x41]
        #expect(ContentDecoding.decode(trailing, encoding: "gzip") == nil, "bytes after the stream's end")
        #expect(ContentDecoding.decode(Array("x".utf8), encoding: "br") == nil)
    }
}
