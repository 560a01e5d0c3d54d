import EarshotBench
import EarshotCore
import Testing

/// The phrase file between the benchmark's two reference children.
@Suite("phrase list")
struct PhraseListTests {
    @Test func aListReadsBackAsWritten() throws {
        var custom = VoiceProfile.standard
        custom.espeakVoice = "en-gb"
        custom.variant = "f3"
        (custom.rate, custom.pitch, custom.volume, custom.wordGap) = (320, 40, 90, 3)
        let list = PhraseList([
            PhraseList.Phrase(text: "Added to cart", voice: .standard),
            PhraseList.Phrase(text: "tab\there, line\nbreak, back\\slash \\n", voice: custom),
            PhraseList.Phrase(text: "", voice: .standard),
        ])
        let read = try PhraseList(parsing: list.text, path: "list")
        #expect(read.phrases.map(\.text) == list.phrases.map(\.text))
        let voice = read.phrases[1].voice
        #expect(voice.espeakVoice == "en-gb" && voice.variant == "f3")
        #expect([voice.rate, voice.pitch, voice.volume, voice.wordGap] == [320, 40, 90, 3])
        #expect(read.phrases[0].voice.variant == nil)
        #expect(list.text.split(separator: "\n").count == 3)
    }

    @Test(arguments: [
        ("en-us\t\t185\t50\t100\t0\tfine\nen-us\t\t185\t50\t100\tHello\n", 2),
        ("en-us\t\tfast\t50\t100\t0\tHello\n", 1),
        ("\t\t185\t50\t100\t0\tHello\n", 1),
        ("en-us\t\t185\t50\t100\t0\tbad escape \\q\n", 1),
        ("en-us\t\t185\t50\t100\t0\tdangling \\\n", 1),
    ])
    func aBrokenLineIsNamedWithItsNumber(text: String, line: Int) {
        #expect(throws: BenchError.self) { try PhraseList(parsing: text, path: "heard.phrases") }
        do {
            _ = try PhraseList(parsing: text, path: "heard.phrases")
        } catch {
            #expect(error.description.hasPrefix("heard.phrases:\(line): not a phrase line"))
        }
    }
}
