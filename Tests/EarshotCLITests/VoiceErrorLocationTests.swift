import Foundation
import Testing

/// A voice that cannot speak is reported where it is written: the `.voice` file's line, or the script's
/// `voice` line, each with the line and a caret.
@Suite struct VoiceErrorLocationTests {
    static func brokenVoices() throws -> String {
        let folder = NSTemporaryDirectory() + "earshot-voices-" + UUID().uuidString
        try FileManager.default.copyItem(atPath: voicesFolder, toPath: folder)
        let expert = folder + "/expert.voice"
        let text = try String(contentsOfFile: expert, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("espeak ") ? "espeak en-zz" : String($0) }.joined(separator: "\n")
        try text.write(toFile: expert, atomically: true, encoding: .utf8)
        return folder
    }

    @Test func anUnknownEspeakVoiceInAVoiceFileNamesItsLine() throws {
        let folder = try Self.brokenVoices()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try EarshotBinary.run([
            "say", "--voices", folder, "--voice", "expert", "-o", folder + "/x.wav", "hi",
        ])
        #expect(result.status == 2, "a bad voice file is a bad input file, like a script")
        let lines = try String(contentsOfFile: folder + "/expert.voice", encoding: .utf8).split(separator: "\n")
        let number = try #require(lines.firstIndex { $0.hasPrefix("espeak ") }) + 1
        #expect(result.error.hasPrefix("\(folder)/expert.voice:\(number):8: error: "))
        #expect(result.error.contains("espeak-ng has no voice 'en-zz'"))
        #expect(result.error.contains("       ^"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/x.wav"))
    }

    @Test func anUnknownVoiceInAScriptHeaderIsAScriptErrorAtItsLine() throws {
        let folder = NSTemporaryDirectory() + "earshot-badvoice-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = try String(
            contentsOfFile: packageRoot + "/Scripts/announcement-spam/after-search.earshot", encoding: .utf8
        )
        .replacingOccurrences(of: "profile  voiceover", with: "profile  voiceover\nvoice    expret")
        try script.write(toFile: folder + "/after.earshot", atomically: true, encoding: .utf8)
        let result = try EarshotBinary.run(["check", folder + "/after.earshot"])
        #expect(result.status == 2)
        #expect(result.error.contains("after.earshot:9:10: error: no voice profile named 'expret'"))
        #expect(result.error.contains("did you mean 'expert'?"))
        #expect(result.error.contains("^~~~~~"))
    }
}
