// libFuzzer entry for scenario scripts: parse → run → check. See tools/fuzz/build.sh.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScript(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzHarness.script(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
