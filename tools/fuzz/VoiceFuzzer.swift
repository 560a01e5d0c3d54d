// libFuzzer entry for voice files. See tools/fuzz/build.sh.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVoice(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzHarness.voice(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
