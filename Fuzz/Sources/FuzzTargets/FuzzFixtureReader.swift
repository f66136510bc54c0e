import FixtureFiles
import StubModel

/// Any bytes as a fixture file: the reader (and the JSON parser under it) must either return
/// fixtures or throw a `file: field: problem` error — never crash, hang or read out of bounds.
/// Whatever it accepts must survive a write → read round trip.
func fuzzFixtureReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let reader = FixtureReader(file: "fuzz.json") { path throws(FixtureReader.FixtureProblem) in
        throw FixtureReader.FixtureProblem("\(path): no body files while fuzzing")
    }
    guard let fixtures = try? reader.read(bytes) else {
        _ = try? JSONParser.parse(bytes)
        return 0
    }
    let written = Array(FixtureWriter.text(for: fixtures).utf8)
    guard let again = try? reader.read(written), again == fixtures else {
        fatalError("a fixture the reader accepted did not survive FixtureWriter: \(String(decoding: written, as: UTF8.self))")
    }
    return 0
}
