import Foundation
import FuzzDriver

/// The targets by name, one per reader of remote input (Fuzz/run.sh lists them with their seed
/// folders): one executable for all of them, so a fuzz build links once.
func fuzzTarget(named name: String) -> (@convention(c) (UnsafePointer<UInt8>, Int) -> CInt)? {
    switch name {
    case "FuzzFixtureReader": return { fuzzFixtureReader($0, $1) }
    case "FuzzCanonicalisation": return { fuzzCanonicalisation($0, $1) }
    case "FuzzRouteLookup": return { fuzzRouteLookup($0, $1) }
    case "FuzzHTTPHead": return { fuzzHTTPHead($0, $1) }
    case "FuzzGraphQL": return { fuzzGraphQL($0, $1) }
    case "FuzzJSON": return { fuzzJSON($0, $1) }
    case "FuzzWebSocketFrames": return { fuzzWebSocketFrames($0, $1) }
    case "FuzzServe": return { fuzzServe($0, $1) }
    case "FuzzHTTP2": return { fuzzHTTP2($0, $1) }
    default: return nil
    }
}

/// Runs libFuzzer with the target `FUZZ_TARGET` names (libFuzzer's own flags and corpus folders
/// follow as usual).
@_cdecl("FuzzTargets_main")
public func fuzzEntry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = fuzzTarget(named: name) else {
        FileHandle.standardError.write(Data(("FuzzTargets: set FUZZ_TARGET to one of FuzzFixtureReader, FuzzCanonicalisation, FuzzRouteLookup, "
            + "FuzzHTTPHead, FuzzGraphQL, FuzzJSON, FuzzWebSocketFrames, FuzzServe, FuzzHTTP2 (got \"\(name)\")\n").utf8))
        return 2
    }
    return runFuzzer(argc, argv, target)
}

/// libFuzzer's own `main` (linked whole, though never run) names this entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    0
}
