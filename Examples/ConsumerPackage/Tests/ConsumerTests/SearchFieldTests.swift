import EarshotSystem
import EarshotTesting
import Testing

/// A search field that announces its result count, heard through a headless VoiceOver with espeak-ng.
@Suite struct SearchFieldTests {
    /// The screen under test: typing into the field posts an announcement, at once or debounced.
    static func session(debounce: Duration?) throws -> ScreenReaderSession {
        let screen = TestScreen {
            SearchField("query", label: "Search products")
            Button("cart", label: "Cart", value: "0 items")
        }
        .onType(in: "query") {
            if let debounce {
                .debounce(debounce) { .announcement("\(["jasmine": "2"], keyedBy: "query") results") }
            } else {
                .announcement("Results updated")
            }
        }
        let session = ScreenReaderSession(
            screen: screen, synthesizer: try EspeakSynthesizer.shared(voicesDirectory: nil))
        try session.focus("query")
        try session.advance(by: .seconds(2))
        try session.type("jasmine", every: .milliseconds(150))
        try session.advance(by: .seconds(3))
        try session.finish()
        return session
    }

    @Test func aDebouncedAnnouncementIsSpokenOnceAfterTheLastKey() throws {
        let session = try Self.session(debounce: .milliseconds(600))
        let results = session.utterances(matching: "2 results")
        #expect(results.count == 1)
        let result = try #require(results.first)
        #expect(result.wasSpoken)
        // espeak-ng gives the phrase a real length: more than a word's worth, less than two seconds.
        let duration = try #require(result.duration)
        #expect(duration > .milliseconds(300) && duration < .seconds(2), "\(result)")
        #expect(session.lastSpokenPhrase == "2 results")
    }

    @Test func announcingOnEveryKeyCutsTheTypingEchoes() throws {
        let session = try Self.session(debounce: nil)
        let echoes = session.utterances(ofKind: .typingEcho)
        #expect(echoes.map(\.text) == ["j", "a", "s", "m", "i", "n", "e"])
        #expect(echoes.allSatisfy { $0.cutBy == "Results updated" }, "\(echoes)")
        #expect(session.utterances(matching: "Results updated").count == 7)
    }
}
