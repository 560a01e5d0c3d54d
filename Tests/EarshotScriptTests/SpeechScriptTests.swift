import EarshotCore
import Testing

@testable import EarshotScript

/// The script, voice-file and pronunciation-file syntax of screen-reader speech: control kinds and attributes,
/// verbosity, text settings, pronunciations; each with the error a mistake gets.
@Suite struct SpeechScriptTests {
    static let header = "title \"T\"\npattern custom p\nvariant before\n"

    static func diagnostics(_ source: String) -> [ScriptDiagnostic] {
        do {
            _ = try ScenarioParser.parse(source: source, path: "bad.earshot")
            return []
        } catch {
            return error.diagnostics
        }
    }

    @Test func newControlAttributesReachTheEnginesElements() throws {
        let document = try ScenarioParser.parse(
            source: Self.header + """
                trait-words off
                trait-hints off
                screen S
                  header title "Settings" level 2
                  textField email "Email" prompt "name@example.com"
                  secureField password "Password" value "secret"
                  picker size "Size" value "Medium"
                  stepper count "Count" value "2"
                  group inbox "" contain list
                    text m1 "From Ada" action "Delete" action "Archive"
                    text m2 "From Bob"
                """, path: "t.earshot")
        let runner = try ScenarioRunner.profile(for: document)
        #expect(!runner.voiceOver.traitWords)
        #expect(!runner.voiceOver.traitHints)
        let screen = try #require(document.screens.first)
        let lowered = Lowering(document: document, network: "wifi").screen(screen)
        let title = try #require(lowered.element("title"))
        #expect(title.headingLevel == 2)
        #expect(title.spokenDescription() == "Settings, heading level 2")
        #expect(lowered.element("email")?.spokenDescription() == "Email, name@example.com, text field")
        #expect(lowered.element("password")?.spokenDescription() == "Password, secure text field")
        #expect(lowered.element("size")?.spokenDescription() == "Size, Medium, adjustable")
        #expect(lowered.element("count")?.spokenDescription() == "Count, 2, adjustable")
        #expect(lowered.element("m1")?.customActions == ["Delete", "Archive"])
        #expect(lowered.element("inbox")?.containerType == .list)
        let context = lowered.phraseContext(of: "m1", in: lowered.navigationOrder)
        #expect(lowered.element("m1")?.spokenDescription(context) == "From Ada, list start, Actions available")
    }

    @Test(arguments: [
        ("  button b \"B\" level 2", "bad.earshot:5:16: error: 'level' is only for a header"),
        ("  header h \"H\" level 7", "bad.earshot:5:22: error: heading level 7 is outside 1...6"),
        ("  header h \"H\" level 0", "bad.earshot:5:22: error:"),
        ("  button b \"B\" prompt \"x\"", "bad.earshot:5:16: error: 'prompt' is only for a textField"),
        ("  text t \"T\" list", "bad.earshot:5:14: error: 'list' is only for a group"),
        ("  text t \"T\" action", "bad.earshot:5:"),
    ])
    func misplacedControlAttributesAreErrorsAtTheirColumn(line: String, expected: String) throws {
        let found = Self.diagnostics(Self.header + "screen S\n" + line + "\n")
        let diagnostic = try #require(found.first)
        #expect(diagnostic.description.hasPrefix(expected), "\(diagnostic.description)")
    }

    @Test func correctControlAttributesAreNotErrors() {
        #expect(
            Self.diagnostics(
                Self.header + "screen S\n  header h \"H\" level 6\n  textField f \"F\" prompt \"p\"\n"
                    + "  group g \"\" contain landmark\n    text t \"T\" action \"A\"\n"
            ).isEmpty)
    }

    @Test func verbosityHeaderSettingsTakeOnOrOff() {
        let found = Self.diagnostics(Self.header + "trait-words maybe\nscreen S\n  button b \"B\"\n")
        #expect(found.first?.description.hasPrefix("bad.earshot:4:13: error:") == true)
    }

    // MARK: Voice files

    @Test func textSettingsInAVoiceFileReachTheProfile() throws {
        let profile = try VoiceFile.parse(
            "espeak en-us\npunctuation all\nacronyms keep\nzero-cents on\nclock-times times\ndates day-first\n",
            name: "v", path: "v.voice")
        #expect(profile.text.punctuation == .all)
        #expect(!profile.text.spellsAcronyms)
        #expect(profile.text.readsZeroCents)
        #expect(!profile.text.readsClockDurations)
        #expect(!profile.text.monthFirstDates)
        let plain = try VoiceFile.parse("espeak en-us\n", name: "v", path: "v.voice")
        #expect(plain.text == SpeechTextSettings())
    }

    @Test(arguments: [
        ("espeak en-us\npunctuation most\n", 2, 13, "'punctuation' must be 'some' or 'none' or 'all', found 'most'"),
        ("espeak en-us\nacronyms yes\n", 2, 10, "'acronyms' must be 'spell' or 'keep'"),
        ("espeak en-us\nzero-cents\n", 2, 11, "'zero-cents' needs a value, as in `zero-cents off`"),
        ("espeak en-us\ndates iso\n", 2, 7, "'dates' must be 'month-first' or 'day-first'"),
    ])
    func badTextSettingsAreErrorsAtTheirColumn(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try VoiceFile.parse(text, name: "bad", path: "Voices/bad.voice")
            Issue.record("accepted a bad file")
        } catch {
            #expect(error.line == line && error.column == column, "at \(error.line):\(error.column)")
            #expect(error.message.contains(message), "message: \(error.message)")
        }
    }

    // MARK: Pronunciation files

    @Test func aPronunciationFileParsesWordsAndPatternsInOrder() throws {
        let dictionary = try PronunciationFile.parse(
            """
            # brand names
            Earshot = ear shot

              iOS = eye oh ess   
            /SKU (\\d+)/ = S K U $1
            """, path: "Voices/pronunciations")
        #expect(dictionary.entries.map(\.line) == [2, 4, 5])
        #expect(dictionary.apply(to: "Earshot on iOS, SKU 42").spoken == "ear shot on eye oh ess, S K U 42")
    }

    @Test(arguments: [
        ("Earshot ear shot\n", 1, 17, "expected '=' and how it is said"),
        (" = ear shot\n", 1, 2, "nothing before '='"),
        ("Earshot =\n", 1, 10, "nothing after '=': write how 'Earshot' is said"),
        ("Earshot = a\nearshot = b\n", 2, 1, "duplicate entry 'earshot' (first on line 1)"),
        ("/SKU (\\d+ = x\n", 1, 1, "unterminated pattern"),
        ("/SKU (\\d+/ = x\n", 1, 2, "invalid pattern"),
        ("/SKU/ x = y\n", 1, 7, "expected '=' after the pattern"),
    ])
    func pronunciationMistakesAreErrorsWithPathLineAndColumn(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try PronunciationFile.parse(text, path: "Voices/pronunciations")
            Issue.record("accepted a bad file")
        } catch {
            #expect(error.line == line && error.column == column, "at \(error.line):\(error.column)")
            #expect(error.message.contains(message), "message: \(error.message)")
            #expect(error.description.hasPrefix("Voices/pronunciations:\(line):\(column): error: "))
        }
    }
}
