import Foundation
import Testing

/// Inputs that used to crash `earshot check` (found by mutating the shipped scripts) now exit 2 with a
/// `path:line:col: error:` message; the saved corpus is in Tests/FuzzCorpus.
@Suite("malformed scripts and voice files")
struct MalformedInputTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzCorpus").path

    @Test(
        "each crash reproducer exits 2 with a located message",
        arguments: [
            ("overflow-at-max-milliseconds", "22:4: error: '9223372036854775807ms' is longer than the 24-hour limit"),
            ("overflow-plus-hours", "22:1: error: '+9999999999h' is longer than the 24-hour limit"),
            ("overflow-wait-minutes", "23:6: error: '153722867m' is longer than the 24-hour limit"),
            ("overflow-wait-seconds", "23:6: error: '9223372036s' is longer than the 24-hour limit"),
            ("overflow-check-window", "28:56: error: '9223372036854775807ms' is longer than the 24-hour limit"),
            ("overflow-every-times", "23:1: error: this line schedules more than 1,000,000 events"),
            ("overflow-swipe-times", "23:1: error: this line schedules more than 1,000,000 events"),
            ("limit-every-1ms-for-24h", "23:1: error: this line schedules more than 1,000,000 events"),
            ("limit-repeat-billion", "11:10: error: repeat 1,000,000,000 is more than the 10,000-element limit"),
            ("truncated-before-screen", "1:1: error: the script declares no screen"),
            ("no-screen", "1:1: error: the script declares no screen"),
            ("invalid-utf8", "5:14: error: not valid UTF-8 (byte 0xFF)"),
            ("countdown-overflow", "6:37: error: '9223372036854775807ms' is longer than the 24-hour limit"),
        ])
    func crashReproducerExitsTwo(name: String, message: String) throws {
        try #require(EarshotBinary.path != nil, "the earshot executable is built next to the tests")
        let path = Self.corpus + "/script/" + name + ".earshot"
        let result = try EarshotBinary.run(["check", path])
        #expect(result.status == 2, "stderr: \(result.error)")
        #expect(result.error.hasPrefix(path + ":" + message), "stderr: \(result.error)")
        #expect(result.output.isEmpty, "nothing runs")
    }

    @Test(arguments: ["1", "2", "4"])
    func everyBadScriptOfAFolderIsReportedInOrderWhateverTheJobs(jobs: String) throws {
        try #require(EarshotBinary.path != nil)
        let folder = try OutputFolder()
        defer { folder.remove() }
        let good = try String(
            contentsOfFile: packageRoot + "/Scripts/announcement-spam/after-search.earshot", encoding: .utf8)
        let bad = ["a-no-screen", "c-overflow-wait-seconds", "e-invalid-utf8"]
        for name in ["b-good", "d-good", "f-good"] {
            try Data(good.utf8).write(to: URL(fileURLWithPath: folder.path + "/\(name).earshot"))
        }
        for (name, source) in zip(bad, ["no-screen", "overflow-wait-seconds", "invalid-utf8"]) {
            try FileManager.default.copyItem(
                atPath: Self.corpus + "/script/" + source + ".earshot", toPath: folder.path + "/\(name).earshot")
        }
        let result = try EarshotBinary.run(["check", "--jobs", jobs, folder.path])
        #expect(result.status == 2, "stderr: \(result.error)")
        #expect(result.output.isEmpty, "nothing runs")
        var files: [String] = []
        for line in result.error.split(separator: "\n") where line.hasPrefix(folder.path + "/") {
            let file = String(line.dropFirst(folder.path.count + 1).prefix { $0 != ":" })
            if files.last != file { files.append(file) }
        }
        #expect(files == bad.map { $0 + ".earshot" }, "stderr: \(result.error)")
        let serial = try EarshotBinary.run(["check", "--jobs", "1", folder.path])
        #expect(result.error == serial.error)
    }

    @Test func aScriptTruncatedAfterItsScreenRuns() throws {
        try #require(EarshotBinary.path != nil)
        let result = try EarshotBinary.run(["check", Self.corpus + "/script/truncated-after-screen.earshot"])
        #expect(result.status == 0, "stderr: \(result.error)")
        #expect(result.output.contains("0 of 0 checks pass"))
    }

    @Test func aCRLFScriptWithAByteOrderMarkRuns() throws {
        try #require(EarshotBinary.path != nil)
        let result = try EarshotBinary.run(["check", Self.corpus + "/script/crlf-and-bom.earshot"])
        #expect(result.status == 0, "stderr: \(result.error)")
    }

    @Test func anEmptyPathIsAUsageErrorNotEveryScript() throws {
        try #require(EarshotBinary.path != nil)
        let result = try EarshotBinary.run(["check", ""])
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("earshot check: error: an empty path names no script"))
        #expect(result.output.isEmpty)
    }

    /// A Voices folder holding one `default.voice` with `text`.
    static func voices(_ bytes: [UInt8]) throws -> OutputFolder {
        let folder = try OutputFolder()
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path + "/default.voice"))
        return folder
    }

    @Test(
        "a malformed voice file exits 2 with one located message, for every command that loads it",
        arguments: [["check", "Scripts/announcement-spam/after-search.earshot"], ["say", "hello"], ["voices"]])
    func malformedVoiceFileExitsTwo(command: [String]) throws {
        try #require(EarshotBinary.path != nil)
        let folder = try Self.voices(Array("espeak en-us\r\nrate fast\r\n".utf8))
        defer { folder.remove() }
        let arguments = [command[0], "--voices", folder.path] + command.dropFirst()
        let result = try EarshotBinary.run(arguments, in: packageRoot, withVoices: false)
        #expect(result.status == 2, "stderr: \(result.error)")
        #expect(
            result.error == folder.path + "/default.voice:2:6: error: 'rate' must be a whole number, found 'fast'\n"
                + "rate fast\n     ^\n")
    }

    @Test func invalidUTF8InAVoiceFileIsLocated() throws {
        try #require(EarshotBinary.path != nil)
        let folder = try Self.voices(Array("espeak en-us\ndescription \"".utf8) + [0xC3, 0x28, 0x22, 0x0A])
        defer { folder.remove() }
        let result = try EarshotBinary.run(["voices", "--voices", folder.path], withVoices: false)
        #expect(result.status == 2, "stderr: \(result.error)")
        #expect(result.error.hasPrefix(folder.path + "/default.voice:2:14: error: not valid UTF-8 (byte 0xC3)"))
    }

    @Test func aCRLFVoiceFileWithAByteOrderMarkIsUsable() throws {
        try #require(EarshotBinary.path != nil)
        let folder = try Self.voices([0xEF, 0xBB, 0xBF] + Array("espeak en-us\r\nrate 200\r\n".utf8))
        defer { folder.remove() }
        let result = try EarshotBinary.run(["voices", "--voices", folder.path], withVoices: false)
        #expect(result.status == 0, "stderr: \(result.error)")
        #expect(result.output.contains("en-us"))
    }
}
