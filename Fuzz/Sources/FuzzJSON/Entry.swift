import FuzzDriver

@_cdecl("FuzzJSON_main")
public func fuzzEntry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { fuzzJSON($0, $1) }
}

/// libFuzzer's own `main` (linked whole, though never run) names this entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzJSON(data, size)
}
