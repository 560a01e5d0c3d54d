import EarshotAudio
import Foundation
import Testing

/// The built `earshot` executable run as a subprocess, with the real espeak-ng.
@Suite("earshot executable")
struct EarshotBinaryTests {
    func earshot(_ arguments: String...) throws -> RunResult {
        try #require(EarshotBinary.path != nil, "the earshot executable is built next to the tests")
        return try EarshotBinary.run(arguments)
    }

    @Test func versionPrintsTheVersion() throws {
        let result = try earshot("--version")
        #expect(result.status == 0)
        #expect(result.output == "earshot 0.1.0\n")
    }

    @Test func helpListsTheCommandsWithASummaryEach() throws {
        let result = try earshot("--help")
        #expect(result.status == 0)
        #expect(result.output.contains("  say "))
        #expect(result.output.contains("  voices "))
        #expect(result.output.contains("Speak text aloud, or into a WAV file with -o."))
    }

    @Test func sayWithOutputWritesAPlayableWAVOfPlausibleLength() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let path = folder.path + "/speech.wav"
        let text = "Hello from Earshot, this sentence has nine words"
        let result = try earshot("say", "-o", path, text)
        #expect(result.status == 0, "stderr: \(result.error)")
        #expect(result.output.hasPrefix("Wrote \(path): "))
        #expect(folder.contents == ["speech.wav"], "no temporary is left behind")

        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF")
        #expect(String(decoding: bytes[8..<16], as: UTF8.self) == "WAVEfmt ")
        #expect(bytes[20..<24] == [1, 0, 1, 0], "PCM, mono")
        #expect(bytes[34..<36] == [16, 0], "16 bits")
        let file = try WAVFile.read(path: path)
        #expect(file.sampleRate == 22_050)
        #expect(bytes.count == 44 + 2 * file.samples.count)
        // Nine words at the default profile's 185 wpm is about 2.9 s; allow for pauses and word lengths.
        #expect((1.8...4.5).contains(file.durationSeconds), "duration \(file.durationSeconds) s")
        #expect((file.samples.map(\.magnitude).max() ?? 0) > 3000, "the speech is audible")
    }

    /// espeak-ng picks a voice whose name is not a file name (`en-us`, `en-gb-x-rp`) from its list of every voice,
    /// unless a private data folder links its file under its name (a Voices folder with custom variants: the standard
    /// voice's at start, another's when a profile first asks for it): both must give the same voice, sample for sample.
    @Test(arguments: ["en-us", "en-gb-x-rp"])
    func aVoiceSoundsTheSameWithAndWithoutItsLinkedFile(voice: String) throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let shippedVoices = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Voices").path
        let profile = "espeak \(voice)\nrate 185\n"
        let withVariants = folder.path + "/voices-with-variants"
        let plainVoices = folder.path + "/voices-without-variants"
        for voices in [withVariants, plainVoices] {
            try FileManager.default.createDirectory(atPath: voices, withIntermediateDirectories: true)
            try profile.write(toFile: voices + "/spoken.voice", atomically: true, encoding: .utf8)
        }
        try FileManager.default.copyItem(atPath: shippedVoices + "/variants", toPath: withVariants + "/variants")
        let text = "Message sent. Undo available, 3 items at 11:59."
        let linked = try earshot(
            "say", "--voices", withVariants, "--voice", "spoken", "-o", folder.path + "/a.wav", text)
        let listed = try earshot(
            "say", "--voices", plainVoices, "--voice", "spoken", "-o", folder.path + "/b.wav", text)
        #expect(linked.status == 0 && listed.status == 0, "\(linked.error)\(listed.error)")
        let a = try WAVFile.read(path: folder.path + "/a.wav").samples
        #expect(a.count > 22_050)
        #expect(a == (try WAVFile.read(path: folder.path + "/b.wav").samples))
    }

    @Test func aFasterVoiceGivesAShorterFile() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let text = "The quick brown fox jumps over the lazy dog"
        #expect(try earshot("say", "-o", folder.path + "/slow.wav", text).status == 0)
        #expect(try earshot("say", "--voice", "expert", "-o", folder.path + "/fast.wav", text).status == 0)
        let slow = try WAVFile.read(path: folder.path + "/slow.wav").durationSeconds
        let fast = try WAVFile.read(path: folder.path + "/fast.wav").durationSeconds
        // expert speaks at 425 wpm, default at 185: about 0.44 of the time.
        #expect(fast / slow > 0.3 && fast / slow < 0.65, "ratio \(fast / slow)")
    }

    @Test func sayWithoutADeviceNamesTheDeviceSuggestsOutputAndExits1() throws {
        let result = try earshot("say", "--device", "earshot-no-such-device", "Hello")
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.error.contains("cannot open audio device 'earshot-no-such-device': "))
        #expect(result.error.contains("-o speech.wav"))
    }

    @Test func sayWithoutOutputPlaysOnTheNamedDevice() throws {
        // ALSA's `null` device needs no sound card and accepts every frame.
        let result = try earshot("say", "--device", "null", "Hello")
        #expect(result.status == 0, "stderr: \(result.error)")
        #expect(result.error.isEmpty)
    }

    @Test func sayWithoutAVoicesFolderFallsBackToTheStandardVoice() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let path = folder.path + "/standard.wav"
        // Run from "/" without EARSHOT_VOICES: no Voices folder unless the executable sits in the package.
        let result = try EarshotBinary.run(["say", "-o", path, "Hello"], in: "/", withVoices: false)
        #expect(result.status == 0, "stderr: \(result.error)")
        #expect(try WAVFile.read(path: path).durationSeconds > 0.2)
        let voices = try EarshotBinary.run(["voices", "--voices", folder.path + "/none"], in: "/")
        #expect(voices.status == 1)
        #expect(voices.error.contains("cannot read the Voices folder \(folder.path)/none"))
    }

    @Test func sayIntoAFolderThatCannotExistFailsWithTheOSReasonAndLeavesNothing() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        _ = FileManager.default.createFile(atPath: folder.path + "/plain", contents: Data("x".utf8))
        let path = folder.path + "/plain/speech.wav"
        let result = try earshot("say", "-o", path, "Hello")
        #expect(result.status == 1)
        #expect(result.error == "earshot: error: cannot create \(path): Not a directory\n")
        #expect(folder.contents == ["plain"])
    }

    @Test(arguments: [
        (["say", "--vocie", "expert", "hi"], "unknown option '--vocie' (did you mean '--voice'?)"),
        (["say", "hi", "--voice"], "missing value for '--voice'"),
        (["say"], "missing argument <text>"),
        (["voices", "x"], "unexpected argument 'x'"),
        (["say", "-x", "hi"], "unknown option '-x'"),
    ])
    func badArgumentsExit64WithThePreciseErrorAndTheUsageLine(arguments: [String], message: String) throws {
        try #require(EarshotBinary.path != nil)
        let result = try EarshotBinary.run(arguments)
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        let lines = result.error.split(separator: "\n").map(String.init)
        #expect(lines.first == "earshot \(arguments[0]): error: \(message)")
        #expect(lines.dropFirst().first?.hasPrefix("usage: earshot \(arguments[0])") == true)
    }

    @Test func anUnknownVoiceIsAUsageErrorListingTheKnownVoices() throws {
        let result = try earshot("say", "--voice", "expret", "-o", "never.wav", "hi")
        #expect(result.status == 64)
        #expect(result.error.contains("no voice profile named 'expret'"))
        #expect(result.error.contains("did you mean 'expert'?"))
        #expect(result.error.contains("default, expert, narrator"))
    }

    @Test func voicesListsEveryProfileWithAMeasuredRateNearItsSetting() throws {
        let result = try earshot("voices")
        #expect(result.status == 0, "stderr: \(result.error)")
        let rows = result.output.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true)
        }
        #expect(rows.first?.prefix(4) == ["NAME", "ESPEAK", "RATE", "MEASURED"])
        var measured: [String: Double] = [:]
        for row in rows.dropFirst() where row.count >= 5 && row[4] == "wpm" {
            let rate = Double(row[2]) ?? 0
            let wpm = Double(row[3]) ?? 0
            measured[String(row[0])] = wpm
            // Trimmed of silence, espeak-ng speaks this sentence somewhat faster than the nominal rate.
            #expect(wpm > rate * 0.8 && wpm < rate * 1.4, "\(row[0]): \(wpm) wpm measured for \(rate)")
        }
        #expect(Set(measured.keys) == ["default", "expert", "narrator"])
        #expect((measured["expert"] ?? 0) > 1.8 * (measured["default"] ?? 0))
        #expect(result.output.contains("en-gb-x-rp+earshot-narrator"))
    }
}
