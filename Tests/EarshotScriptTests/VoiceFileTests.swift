import EarshotCore
import EarshotScript
import Testing

/// The `.voice` format: what it accepts and the line:column errors it gives.
@Suite struct VoiceFileTests {
    @Test func aCompleteFileParsesIntoAProfile() throws {
        let text = """
            # A test voice
            espeak en-gb   # British
            variant f3
            rate 220
            pitch 60
            volume 120
            wordgap 2

            description "Quoted \\"text\\" here"
            """
        let profile = try VoiceFile.parse(text, name: "test", path: "test.voice")
        #expect(
            profile
                == VoiceProfile(
                    name: "test", espeakVoice: "en-gb", variant: "f3", rate: 220, pitch: 60, volume: 120, wordGap: 2,
                    description: "Quoted \"text\" here"))
    }

    @Test func onlyEspeakIsRequiredAndTheRestDefaults() throws {
        let profile = try VoiceFile.parse("espeak en-us\n", name: "plain", path: "plain.voice")
        #expect(profile == VoiceProfile(name: "plain", espeakVoice: "en-us"))
    }

    @Test(arguments: [
        ("espeak en-us\nspeed 200\n", 2, 1, "unknown key 'speed' (did you mean 'rate'?)"),
        ("espeak en-us\nrate 200\nrate 300\n", 3, 1, "duplicate key 'rate' (first set on line 2)"),
        ("rate 200\n", 1, 1, "missing required line `espeak <voice>`"),
        ("espeak en-us\nrate fast\n", 2, 6, "'rate' must be a whole number, found 'fast'"),
        ("espeak en-us\nrate   500\n", 2, 8, "rate 500 is outside the allowed range 80...449 words per minute"),
        ("espeak en-us\nrate 79\n", 2, 6, "rate 79 is outside the allowed range 80...449"),
        ("espeak en-us\npitch 101\n", 2, 7, "pitch 101 is outside the allowed range 0...100"),
        ("espeak\n", 1, 7, "'espeak' needs a value"),
        ("espeak en us\n", 1, 8, "'espeak' takes one word"),
        ("espeak en-us\n  description \"open\n", 2, 15, "unterminated string"),
        ("espeak en-us\ndescription \"a\" b\n", 2, 17, "unexpected text after the closing quote"),
    ])
    func errorsCarryLineColumnAndAnActionableMessage(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try VoiceFile.parse(text, name: "bad", path: "Voices/bad.voice")
            Issue.record("accepted a bad file")
        } catch {
            #expect(
                error.line == line && error.column == column, "at \(error.line):\(error.column) for \(error.message)")
            #expect(error.message.contains(message), "message: \(error.message)")
            #expect(error.description.hasPrefix("Voices/bad.voice:\(line):\(column): error: "))
        }
    }

    @Test func theErrorShowsTheLineAndACaretUnderTheColumn() {
        do {
            _ = try VoiceFile.parse("espeak en-us\nrate 500\n", name: "fast", path: "fast.voice")
            Issue.record("accepted rate 500")
        } catch {
            #expect(
                error.description == """
                    fast.voice:2:6: error: rate 500 is outside the allowed range 80...449 words per minute
                    rate 500
                         ^
                    """)
        }
    }

    @Test func anUnreadableFileIsAnErrorNamingIt() {
        #expect(throws: VoiceFileError.self) { try VoiceFile.load(path: "/nonexistent/earshot/x.voice") }
    }
}
