import EarshotSystem
import Foundation
import Testing

/// Each espeak-ng worker writes back a copy of its memory before every phrase instead of forking a child per
/// phrase (`EARSHOT_ISOLATION=fork`, the fallback). Both must give the same speech: a copy that missed any
/// of espeak-ng's state would make a phrase depend on the phrases before it, which the fork never does.
@Suite("worker isolation")
struct WorkerIsolationTests {
    /// Scripts with many phrases in a row, cut speech, the narrator's voice beside the reader's, and typing.
    static let scripts = [
        "announcement-spam/before-search.earshot", "announcement-spam/before-order-status.earshot",
        "audio-only-task/before-captions.earshot", "updates-frequently/before.earshot",
    ]

    static func render(_ script: String, isolation: String?, into folder: String) throws -> RunResult {
        try EarshotBinary.runProgram(
            try #require(EarshotBinary.path),
            ["render", "--no-cache", packageRoot + "/Scripts/" + script, "-o", folder + "/speech.wav"],
            environment: ["EARSHOT_VOICES": voicesFolder, "EARSHOT_ISOLATION": isolation])
    }

    @Test(arguments: scripts)
    func restoringMemoryRendersWhatForkingPerPhraseRenders(script: String) throws {
        try #require(EarshotBinary.path != nil, "the earshot executable is built next to the tests")
        let root = NSTemporaryDirectory() + "earshot-isolation-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        var outputs: [[String: Data]] = []
        for isolation in [nil, "fork"] {
            let folder = root + "/" + (isolation ?? "restore")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let result = try Self.render(script, isolation: isolation, into: folder)
            #expect(result.status == 0, "\(result.error)")
            // A worker that dies is started again and the phrase retried, so the speech can come out right while
            // the C library's abort message and a crash report reach the user's terminal.
            #expect(result.error.isEmpty, "\(script), \(isolation ?? "restore"): \(result.error)")
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            }
            outputs.append(files)
        }
        #expect(outputs[0].keys.sorted() == ["speech.jsonl", "speech.vtt", "speech.wav"])
        #expect(outputs[0].keys.sorted() == outputs[1].keys.sorted())
        for (name, restored) in outputs[0] {
            let forked = outputs[1][name]
            #expect(restored == forked, "\(script): \(name) differs between restoring memory and forking per phrase")
        }
    }

    /// The memory copy finds espeak-ng's state by the library's file name; a library opened under another name
    /// (`EARSHOT_ESPEAK_LIBRARY`) must be copied too, or phrases would depend on the ones before them.
    @Test func aLibraryUnderAnotherFileNameIsRestoredToo() throws {
        try #require(EarshotBinary.path != nil, "the earshot executable is built next to the tests")
        try EspeakLibrary.open()
        let root = NSTemporaryDirectory() + "earshot-isolation-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let renamed = root + "/speech-engine.so"
        try Data(contentsOf: URL(fileURLWithPath: EspeakLibrary.name())).write(to: URL(fileURLWithPath: renamed))
        var waves: [Data] = []
        for isolation in [nil, "fork"] {
            let folder = root + "/" + (isolation ?? "restore")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let result = try EarshotBinary.runProgram(
                try #require(EarshotBinary.path),
                [
                    "render", "--no-cache", packageRoot + "/Scripts/announcement-spam/before-search.earshot", "-o",
                    folder + "/speech.wav",
                ],
                environment: [
                    "EARSHOT_VOICES": voicesFolder, "EARSHOT_ISOLATION": isolation, "EARSHOT_ESPEAK_LIBRARY": renamed,
                ])
            #expect(result.status == 0, "\(result.error)")
            waves.append(try Data(contentsOf: URL(fileURLWithPath: folder + "/speech.wav")))
        }
        let same = waves[0] == waves[1]  // compared outside #expect, which would diff the bytes
        #expect(same, "restoring memory and forking per phrase differ with the renamed library")
    }
}
