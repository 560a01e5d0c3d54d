// libFuzzer's entry point. One binary serves both targets (one build instead of two):
// EARSHOT_FUZZ_TARGET=script (the default) fuzzes scenario scripts through parse → run → check,
// EARSHOT_FUZZ_TARGET=voice fuzzes voice files. See tools/fuzz/run.sh.
import Foundation

let fuzzesVoiceFiles = ProcessInfo.processInfo.environment["EARSHOT_FUZZ_TARGET"] == "voice"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if fuzzesVoiceFiles {
        FuzzHarness.voice(bytes)
    } else {
        FuzzHarness.script(bytes)
    }
    return 0
}
