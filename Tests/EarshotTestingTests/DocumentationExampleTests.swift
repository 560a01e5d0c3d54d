// The complete example of docs/testing-api.md, verbatim, so the documentation always compiles and passes.
import EarshotSystem  // EspeakSynthesizer
import EarshotTesting
import Testing

@Suite struct SearchScreenSpeechTests {
    static let resultCounts = [
        "j": "42", "ja": "17", "jas": "9", "jasm": "4", "jasmi": "3", "jasmin": "3", "jasmine": "2",
    ]

    /// The screen as VoiceOver sees it.
    static func screen(debounced: Bool) -> TestScreen {
        let screen = TestScreen {
            SearchField("query", label: "Search products")
            StaticText("results")
            Button("cart", label: "Cart", value: "0 items")
                .accessibilityHint("Opens your cart")
        }
        guard debounced else {
            return screen.onType(in: "query") { .announcement("Results updated") }
        }
        return screen.onType(in: "query") {
            .debounce(.milliseconds(600)) {
                .announcement("\(resultCounts, keyedBy: "query") results")
            }
        }
    }

    static func typeJasmine(debounced: Bool) throws -> ScreenReaderSession {
        let session = ScreenReaderSession(
            screen: screen(debounced: debounced),
            synthesizer: try EspeakSynthesizer.shared(voicesDirectory: nil))
        try session.focus("query")  // "Search products, search field"
        try session.advance(by: .seconds(2))
        try session.type("jasmine", every: .milliseconds(150))  // one key every 150 ms
        try session.advance(by: .seconds(3))
        return session
    }

    @Test func announcingOnEveryKeystrokeCutsEachEcho() throws {
        let session = try Self.typeJasmine(debounced: false)
        let echoes = session.utterances(ofKind: .typingEcho)
        #expect(echoes.count == 7)
        for echo in echoes {
            #expect(echo.cutBy == "Results updated", "\(echo)")
            #expect(try #require(echo.duration) <= .milliseconds(12))
        }
    }

    @Test func debouncingLetsEveryEchoThroughAndAnnouncesOnce() throws {
        let session = try Self.typeJasmine(debounced: true)
        #expect(session.utterances(ofKind: .typingEcho).map(\.text) == ["j", "a", "s", "m", "i", "n", "e"])
        #expect(session.announcements.map(\.text) == ["2 results"])
        let result = try #require(session.announcements.first)
        let lastKey = try #require(session.keystrokes.last)
        #expect(result.requestedAt - lastKey >= .milliseconds(600))
        #expect(session.lastSpokenPhrase == "2 results", "\(session.transcript)")
    }
}
