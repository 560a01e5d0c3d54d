import EarshotSystem
import Foundation
import Testing

/// libespeak-ng is opened at run time, only by processes that speak, and a missing one is reported by name.
@Suite("espeak-ng library loading")
struct EspeakLoadingTests {
    /// Runs the built `earshot` with the dynamic loader reporting every library it maps (`LD_DEBUG=files`).
    func traced(_ arguments: [String], extra: [String: String?] = [:]) throws -> RunResult {
        let path = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        var environment: [String: String?] = ["EARSHOT_VOICES": voicesFolder, "LD_DEBUG": "files"]
        for (name, value) in extra { environment[name] = value }
        return try EarshotBinary.runProgram(path, arguments, environment: environment)
    }

    /// The loader's lines about espeak-ng's library: "file=libespeak-ng.so.1 [0];  needed by …" when linked,
    /// "… dynamically loaded by …" when opened at run time.
    func espeakLines(_ trace: String) -> [Substring] {
        trace.split(separator: "\n").filter { $0.contains("file=libespeak-ng") }
    }

    @Test func commandsThatDoNotSpeakNeverLoadTheLibrary() throws {
        for arguments in [["--version"], ["--help"], ["help", "checks"], ["cache"], ["render", "--help"]] {
            let result = try traced(arguments)
            #expect(result.status == 0, "\(arguments): \(result.error.suffix(300))")
            #expect(espeakLines(result.error).isEmpty, "\(arguments) loaded espeak-ng: \(espeakLines(result.error))")
        }
    }

    @Test func aCommandThatSpeaksOpensTheLibraryAtRunTime() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let result = try traced(["say", "-o", folder.path + "/hello.wav", "Hello"])
        #expect(result.status == 0, "\(result.error.suffix(300))")
        let lines = espeakLines(result.error)
        #expect(!lines.isEmpty, "the loader never mapped libespeak-ng")
        #expect(lines.allSatisfy { !$0.contains("needed by") }, "linked, not opened: \(lines)")
        #expect(lines.contains { $0.contains("dynamically loaded by") }, "\(lines)")
    }

    @Test func aMissingLibraryIsNamedAndNoOutputIsWritten() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let script = packageRoot + "/Scripts/announcement-spam/before-cart.earshot"
        let missing = folder.path + "/lib/libespeak-ng.so.1"
        let result = try EarshotBinary.runProgram(
            try #require(EarshotBinary.path),
            ["render", "--no-cache", script, "-o", folder.path + "/out.wav"],
            environment: ["EARSHOT_VOICES": voicesFolder, "EARSHOT_ESPEAK_LIBRARY": missing])
        #expect(result.status != 0)
        #expect(result.error.contains("cannot load the espeak-ng library \(missing)"), "\(result.error)")
        #expect(result.error.contains("No such file"), "\(result.error)")
        #expect(folder.contents.isEmpty, "nothing written: \(folder.contents)")
    }

    @Test func aLibraryThatIsNotEspeakIsRefusedBeforeAnyCall() throws {
        let result = try EarshotBinary.runProgram(
            try #require(EarshotBinary.path), ["say", "-o", "/dev/null", "Hello"],
            environment: ["EARSHOT_VOICES": voicesFolder, "EARSHOT_ESPEAK_LIBRARY": "libm.so.6"])
        #expect(result.status != 0)
        #expect(result.error.contains("libm.so.6 has no function espeak_ng_InitializePath"), "\(result.error)")
    }

    @Test func checkingALibraryFileNamesWhatIsWrongWithIt() {
        #expect(EspeakLibrary.problem(withLibrary: "libespeak-ng.so.1") == nil)
        let missing = EspeakLibrary.problem(withLibrary: "/nonexistent/libespeak-ng.so.1")
        #expect(missing?.contains("/nonexistent/libespeak-ng.so.1") == true, "\(missing ?? "nil")")
        let other = EspeakLibrary.problem(withLibrary: "libm.so.6")
        #expect(other == "libm.so.6 has no function espeak_ng_InitializePath (not an espeak-ng library)")
    }

    @Test func theOpenedLibraryIsNamedByItsPath() throws {
        try EspeakLibrary.open()
        let name = EspeakLibrary.name()
        #expect(name.hasPrefix("/"), "\(name)")
        #expect(name.contains("libespeak-ng"), "\(name)")
    }

    @Test func aCheckAnsweredFromThePhraseCacheNeverLoadsTheLibrary() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let script = packageRoot + "/Scripts/meaningful-announcement/before-cart.earshot"
        let cache = ["EARSHOT_CACHE_DIR": folder.path + "/cache"]
        let cold = try traced(["check", script], extra: cache)
        #expect(!espeakLines(cold.error).isEmpty, "the cold run synthesizes, so it opens espeak-ng")
        let warm = try traced(["check", script], extra: cache)
        #expect(espeakLines(warm.error).isEmpty, "the warm run loaded espeak-ng: \(espeakLines(warm.error))")
        #expect(warm.status == cold.status)
        #expect(warm.output == cold.output, "the same verdicts from the cache")
        let uncached = try traced(["check", "--no-cache", script], extra: cache)
        #expect(!espeakLines(uncached.error).isEmpty, "--no-cache synthesizes")
    }
}
