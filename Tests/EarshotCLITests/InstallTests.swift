import Foundation
import Testing

/// `make install PREFIX=…` and the installed binary used from a folder that is not a checkout.
@Suite(.serialized) struct InstallTests {
    /// Runs a program with arguments in a folder, without `EARSHOT_VOICES` (and without the outer make's
    /// flags); status and both streams.
    static func run(_ program: String, _ arguments: [String], in folder: String) throws -> RunResult {
        try EarshotBinary.runProgram(
            program, arguments, in: folder, environment: ["EARSHOT_VOICES": nil, "MAKEFLAGS": nil])
    }

    @Test func theInstalledBinaryChecksAScriptInAnotherFolderAndUninstallRemovesIt() throws {
        let binary = try #require(EarshotBinary.path)
        let prefix = try OutputFolder()
        defer { prefix.remove() }
        let elsewhere = try OutputFolder()
        defer { elsewhere.remove() }
        let make = try Self.run(
            "/usr/bin/env", ["make", "-C", packageRoot, "install-files", "PREFIX=" + prefix.path, "EARSHOT=" + binary],
            in: elsewhere.path)
        #expect(make.status == 0, "\(make.error)")
        let installed = prefix.path + "/bin/earshot"
        #expect(FileManager.default.isExecutableFile(atPath: installed))
        for file in [
            "Voices/default.voice", "Voices/expert.voice", "docs/scenario-format.md", "docs/speech-model.md",
            "docs/patterns/announcement-spam.md", "Scripts/announcement-spam/after-search.earshot",
            "editors/earshot.tmLanguage.json",
        ] {
            #expect(FileManager.default.fileExists(atPath: prefix.path + "/share/earshot/" + file), "\(file)")
        }

        try FileManager.default.copyItem(
            atPath: packageRoot + "/Scripts/announcement-spam/after-search.earshot",
            toPath: elsewhere.path + "/mine.earshot")
        // --voice expert needs the Voices folder: only the install's share folder has it here.
        let check = try Self.run(installed, ["check", "--voice", "expert", "mine.earshot"], in: elsewhere.path)
        #expect(check.status == 0, "\(check.error)")
        #expect(check.output.contains("mine.earshot — Search results while typing (after, voiceover, voice expert)"))
        let pattern = try Self.run(
            installed, ["check", "--quiet", "--expect-variants", "updates-frequently"], in: elsewhere.path)
        #expect(pattern.status == 0, "a pattern name finds the installed Scripts: \(pattern.error)")
        let help = try Self.run(installed, ["help", "script"], in: elsewhere.path)
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("# Scenario scripts"))
        #if os(Linux)
            // The playback stand-in built beside the binary is installed with it, and the installed binary loads it.
            let standIn = prefix.path + "/lib/earshot/libearshot-pcaudio.so"
            #expect(FileManager.default.fileExists(atPath: standIn))
            let say = try EarshotBinary.runProgram(
                installed, ["say", "-o", elsewhere.path + "/hello.wav", "Hello"], in: elsewhere.path,
                environment: ["EARSHOT_VOICES": nil, "MAKEFLAGS": nil, "LD_DEBUG": "files"])
            #expect(say.status == 0, "\(say.error.suffix(300))")
            #expect(say.error.contains("file=" + standIn), "the installed binary did not load its stand-in")
            #expect(!say.error.contains("file=libpulse"), "PulseAudio was loaded")
        #endif

        let uninstall = try Self.run(
            "/usr/bin/env", ["make", "-C", packageRoot, "uninstall", "PREFIX=" + prefix.path], in: elsewhere.path)
        #expect(uninstall.status == 0, "\(uninstall.error)")
        #expect(!FileManager.default.fileExists(atPath: installed))
        #expect(!FileManager.default.fileExists(atPath: prefix.path + "/share/earshot"))
        #expect(!FileManager.default.fileExists(atPath: prefix.path + "/lib/earshot"))
    }

    @Test func aBareBinaryWithoutItsShareFolderSaysWhereItLooked() throws {
        let binary = try #require(EarshotBinary.path)
        let prefix = try OutputFolder()
        defer { prefix.remove() }
        try FileManager.default.createDirectory(atPath: prefix.path + "/bin", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: binary, toPath: prefix.path + "/bin/earshot")
        try FileManager.default.copyItem(
            atPath: packageRoot + "/Scripts/announcement-spam/after-search.earshot",
            toPath: prefix.path + "/mine.earshot")
        let check = try Self.run(
            prefix.path + "/bin/earshot", ["check", "--voice", "expert", "mine.earshot"], in: prefix.path)
        #expect(check.status != 0)
        #expect(check.error.contains("no Voices folder found"), "\(check.error)")
        let help = try Self.run(prefix.path + "/bin/earshot", ["help", "script"], in: prefix.path)
        #expect(help.status == 1)
        #expect(help.error.contains("docs/scenario-format.md not found"), "\(help.error)")
    }
}
