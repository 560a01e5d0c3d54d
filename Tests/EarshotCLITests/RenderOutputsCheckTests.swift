import Foundation
import Testing

/// A render never puts what the user has at risk: bad output names fail before any work, and an interrupted
/// render leaves no temporary behind.
@Suite struct RenderOutputsCheckTests {
    static let script = packageRoot + "/Scripts/announcement-spam/after-search.earshot"

    static func scratch() throws -> String {
        let folder = NSTemporaryDirectory() + "earshot-outputs-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func outputsThatWouldOverwriteTheScriptOrEachOtherAreRefusedWithNothingWritten() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mine = folder + "/mine.earshot"
        try FileManager.default.copyItem(atPath: Self.script, toPath: mine)
        let original = try String(contentsOfFile: mine, encoding: .utf8)
        let cases: [([String], String)] = [
            (["render", mine, "-o", mine], "the audio goes to a .wav file"),
            (["render", mine, "-o", folder + "/x.vtt"], "the audio goes to a .wav file"),
            (["render", mine, "-o", folder + "/x.wav", "--html", folder + "/x.wav"], "goes to an .html file"),
            (["render", mine, "-o", folder + "/x.wav", "--html", folder + "/x.vtt"], "goes to an .html file"),
        ]
        for (words, message) in cases {
            let result = try EarshotBinary.run(words)
            #expect(result.status == 64, "\(words)")
            #expect(result.error.contains(message), "\(result.error)")
        }
        #expect(try String(contentsOfFile: mine, encoding: .utf8) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["mine.earshot"])
    }

    @Test func anOutputNamedThroughALinkOrDotsIsStillSeenToBeTheScript() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A script named like the transcript a render of `x.wav` writes beside it.
        let script = folder + "/x.vtt"
        try FileManager.default.copyItem(atPath: Self.script, toPath: script)
        try FileManager.default.createSymbolicLink(atPath: folder + "/same", withDestinationPath: folder)
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: false)
        let original = try String(contentsOfFile: script, encoding: .utf8)
        for wav in [folder + "/x.wav", folder + "/same/x.wav", folder + "/sub/../x.wav", folder + "/same/./x.wav"] {
            let result = try EarshotBinary.run(["render", script, "-o", wav])
            #expect(result.status == 64, "\(wav)")
            #expect(result.error.contains("would overwrite the script \(script)"), "\(wav): \(result.error)")
        }
        #expect(try String(contentsOfFile: script, encoding: .utf8) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["same", "sub", "x.vtt"])
    }

    @Test func aFolderOrAMissingFolderAsOutputFailsBeforeRendering() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/out.wav", withIntermediateDirectories: true)
        let intoFolder = try EarshotBinary.run(["render", Self.script, "-o", folder + "/out.wav"])
        #expect(intoFolder.status == 64)
        #expect(intoFolder.error.contains("is a folder"))
        let missing = try EarshotBinary.run(["render", Self.script, "-o", folder + "/nowhere/x.wav"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("the folder \(folder)/nowhere does not exist"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/a-file"))
        let underAFile = try EarshotBinary.run(["render", Self.script, "-o", folder + "/a-file/x.wav"])
        #expect(underAFile.status == 1)
        let notAFolder = "cannot write \(folder)/a-file/x.wav: \(folder)/a-file is a file, not a folder"
        #expect(underAFile.error.contains(notAFolder), "\(underAFile.error)")
    }

    @Test func anInterruptedRenderLeavesNoTemporaryAndExits130() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A ten-minute stopwatch: long enough to be interrupted while its outputs are being written.
        let long = folder + "/long.earshot"
        try """
        title "long"
        pattern updates-frequently
        variant after
        screen S
          text w "00:00:00" trait updatesFrequently
        at 0s every 1s for 600s set w label "{clock}"
        at 0.5s focus w
        wait 1s
        """.write(toFile: long, atomically: true, encoding: .utf8)
        guard let binary = EarshotBinary.path else {
            Issue.record("no earshot binary")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["render", long, "-o", folder + "/x.wav"]
        var environment = ProcessInfo.processInfo.environment
        environment["EARSHOT_VOICES"] = voicesFolder
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let watcher = try FolderWatcher(folder)
        try process.run()
        // The WAV's temporary appearing is the event; the ceiling only guards against a hung render.
        let sawTemporary = watcher.waitForCreation {
            $0.hasSuffix(".tmp")
        } isDone: {
            !process.isRunning
        }
        #expect(sawTemporary, "the render never started writing")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["long.earshot"])
    }
}
