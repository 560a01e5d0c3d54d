import Foundation
import Testing

/// Voice files that used to crash espeak-ng or steer it to other files are reported at their line, with
/// a non-zero exit and no output file; the private espeak-ng data folder does not outlive the process.
@Suite struct UntrustedVoiceTests {
    /// The exit status of a voice file error (as in VoiceErrorLocationTests).
    static let voiceFileErrorStatus: Int32 = 2

    /// A copy of the shipped Voices folder whose `file` has `key`'s line replaced by `key value`.
    static func voices(editing file: String, key: String, value: String) throws -> (folder: String, line: Int) {
        let folder = NSTemporaryDirectory() + "earshot-untrusted-" + UUID().uuidString
        try FileManager.default.copyItem(atPath: voicesFolder, toPath: folder)
        let path = folder + "/" + file
        var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.hasPrefix(key + " ") })
        lines[index] = key + " " + value
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return (folder, index + 1)
    }

    @Test(arguments: [
        ("espeak", "f3", "espeak-ng has no voice 'f3'"),
        ("espeak", "m3", "espeak-ng has no voice 'm3'"),
        ("espeak", "klatt", "espeak-ng has no voice 'klatt'"),
        ("espeak", "en-us+../../../../elsewhere/x", "invalid espeak-ng voice name"),
        ("variant", String(repeating: "v", count: 37), "names are at most 32 characters"),
        ("variant", "../../../../elsewhere/x", "invalid espeak-ng variant name"),
    ])
    func aDangerousNameInAVoiceFileIsAnErrorAtItsLine(key: String, value: String, message: String) throws {
        let file = key == "variant" ? "narrator.voice" : "expert.voice"
        let (folder, line) = try Self.voices(editing: file, key: key, value: value)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let profile = file.replacingOccurrences(of: ".voice", with: "")
        let result = try EarshotBinary.run([
            "say", "--voices", folder, "--voice", profile, "-o", folder + "/x.wav", "hi",
        ])
        #expect(result.status == Self.voiceFileErrorStatus, "stderr: \(result.error)")
        let column = key.count + 2
        #expect(result.error.contains("\(folder)/\(file):\(line):\(column): error: "), "stderr: \(result.error)")
        #expect(result.error.contains(message), "stderr: \(result.error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/x.wav"))
    }

    @Test func theVoicesCommandReportsADangerousVoiceAsUnusableInsteadOfCrashing() throws {
        let (folder, _) = try Self.voices(editing: "expert.voice", key: "espeak", value: "f3")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try EarshotBinary.run(["voices", "--voices", folder])
        #expect(result.status == 1, "stderr: \(result.error)")
        #expect(result.output.contains("unusable"))
        #expect(result.error.contains("espeak-ng has no voice 'f3'"))
        // The untouched profiles still speak.
        #expect(result.output.contains("default ") && result.output.contains(" wpm"))
    }

    @Test func aTemporaryFolderThatCannotHoldThePrivateDataFolderIsReportedWithItsPath() throws {
        let binary = try #require(EarshotBinary.path)
        let output = NSTemporaryDirectory() + "earshot-untrusted-" + UUID().uuidString + ".wav"
        let missing = "/nonexistent-" + UUID().uuidString
        let result = try Self.run(
            binary, ["say", "--voices", voicesFolder, "--voice", "narrator", "-o", output, "hi"], temporary: missing)
        #expect(result.status == 1)
        #expect(result.error.contains("cannot prepare the espeak-ng data folder \(missing)/earshot-espeak-data-XXXXXX"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// Runs `binary` with TMPDIR set to `temporary`.
    static func run(_ binary: String, _ arguments: [String], temporary: String) throws -> RunResult {
        let errorPath = NSTemporaryDirectory() + "earshot-untrusted-err-" + UUID().uuidString
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        try errors.close()
        return RunResult(
            status: process.terminationStatus, output: "",
            error: try String(contentsOfFile: errorPath, encoding: .utf8))
    }

    /// Private data folders in `temporary` that a process left unfinished or as its own: every one but a sealed kept
    /// folder (the synthesizer's, which later processes use again; see `EspeakDataFolder+Kept.swift`).
    static func leftBehind(in temporary: String) -> [String] {
        let kept = "earshot-espeak-data-\(geteuid())-"
        return ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []).filter { name in
            name.hasPrefix("earshot-espeak-data-")
                && !(name.hasPrefix(kept)
                    && FileManager.default.fileExists(atPath: temporary + "/" + name + "/.earshot-kept"))
        }
    }

    /// A process's own data folder goes when it exits; the synthesizer's is kept, sealed, and used by the next one.
    @Test func onlyTheKeptDataFolderOutlivesTheProcess() throws {
        let binary = try #require(EarshotBinary.path)
        let temporary = NSTemporaryDirectory() + "earshot-tmpdir-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        // The narrator's custom variant makes earshot build a private data folder under TMPDIR.
        let result = try Self.run(
            binary, ["say", "--voices", voicesFolder, "--voice", "narrator", "-o", temporary + "/x.wav", "hi"],
            temporary: temporary)
        #expect(result.status == 0, "stderr: \(result.error)")
        #expect(FileManager.default.fileExists(atPath: temporary + "/x.wav"))
        #expect(Self.leftBehind(in: temporary).isEmpty, "left behind: \(Self.leftBehind(in: temporary))")
        let folders = try FileManager.default.contentsOfDirectory(atPath: temporary).filter {
            $0.hasPrefix("earshot-espeak-data-")
        }
        #expect(folders.count == 1, "data folders: \(folders)")
        let again = try Self.run(
            binary, ["say", "--voices", voicesFolder, "--voice", "narrator", "-o", temporary + "/y.wav", "hi"],
            temporary: temporary)
        #expect(again.status == 0, "stderr: \(again.error)")
        let after = try FileManager.default.contentsOfDirectory(atPath: temporary).filter {
            $0.hasPrefix("earshot-espeak-data-")
        }
        #expect(after == folders, "the second process used \(after), not the kept \(folders)")
    }

    /// espeak-ng starts on a background thread while the script is read (`EngineWarmUp`); a script that fails
    /// to parse ends the process while that start is making its data folder: only a finished, sealed kept folder may
    /// outlive it.
    @Test func aScriptThatFailsWhileEspeakStartsLeavesNoDataFolderOfItsOwn() throws {
        let binary = try #require(EarshotBinary.path)
        let temporary = NSTemporaryDirectory() + "earshot-tmpdir-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let script = temporary + "/broken.earshot"
        try "title \"broken\"\npattern announcement-spam\nvariant before\nscreen S\n  button b \"B\"\nat 1s tap\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        for attempt in 1...10 {
            let result = try Self.run(
                binary, ["render", "--voices", voicesFolder, "--no-cache", script, "-o", temporary + "/x.wav"],
                temporary: temporary)
            #expect(result.status == 2, "attempt \(attempt): \(result.error)")
            #expect(result.error.contains("broken.earshot:6:"), "attempt \(attempt): \(result.error)")
            let left = Self.leftBehind(in: temporary)
            #expect(left.isEmpty, "attempt \(attempt) left behind: \(left)")
            if !left.isEmpty { break }
        }
    }

    @Test func anInterruptedRenderLeavesNoDataFolderOfItsOwn() throws {
        let temporary = NSTemporaryDirectory() + "earshot-tmpdir-" + UUID().uuidString
        let outputs = temporary + "/out"
        try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let script = outputs + "/long.earshot"
        try """
        title "long"
        pattern updates-frequently
        variant after
        screen S
          text w "00:00:00" trait updatesFrequently
        at 0s every 1s for 600s set w label "{clock}"
        at 0.5s focus w
        wait 1s
        """.write(toFile: script, atomically: true, encoding: .utf8)
        // Uncached: a render answered from the phrase cache never starts espeak-ng, so it makes no data folder.
        let process = try EarshotBinary.start(
            ["render", "--no-cache", script, "-o", outputs + "/x.wav"], environment: ["TMPDIR": temporary])
        func dataFolders() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []).filter {
                $0.hasPrefix("earshot-espeak-data-")
            }
        }
        // Wait for the render to start writing (its first hidden temporary), with a generous ceiling.
        var writing = false
        for _ in 0..<3000 where !writing {
            usleep(10_000)
            writing = ((try? FileManager.default.contentsOfDirectory(atPath: outputs)) ?? []).contains {
                $0.hasSuffix(".tmp")
            }
        }
        #expect(writing, "the render never started writing")
        #expect(dataFolders().count == 1, "the render made its private data folder")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(Self.leftBehind(in: temporary).isEmpty, "left behind: \(Self.leftBehind(in: temporary))")
    }
}
