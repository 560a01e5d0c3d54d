import EarshotSystem
import EarshotTesting
import Foundation

/// Shared fixtures: the real espeak-ng synthesizer and the search screen of the announcement-spam card.
enum TestingFixtures {
    /// The process's espeak-ng, found the way an app's test suite would find it.
    static func synthesizer() throws -> EspeakSynthesizer {
        try EspeakSynthesizer.shared(voicesDirectory: nil)
    }

    /// Result counts for each prefix of "jasmine".
    static let resultCounts = [
        "j": "42", "ja": "17", "jas": "9", "jasm": "4", "jasmi": "3", "jasmin": "3", "jasmine": "2",
    ]

    /// The search screen. With `debounce`, the app announces the result count once typing pauses for it;
    /// without, it announces "Results updated" on every keystroke.
    static func searchScreen(debounce: Duration?) -> TestScreen {
        let screen = TestScreen {
            SearchField("query", label: "Search products")
            StaticText("results")
            Button("cart", label: "Cart", value: "0 items")
                .accessibilityHint("Opens your cart")
        }
        guard let debounce else {
            return screen.onType(in: "query") {
                .announcement("Results updated")
            }
        }
        return screen.onType(in: "query") {
            .debounce(debounce) {
                .announcement("\(resultCounts, keyedBy: "query") results")
            }
        }
    }

    /// Types "jasmine" at 150 ms a key into the focused search field, then lets speech settle.
    static func jasmineSearch(debounce: Duration?, speech: SpeechLibrary? = nil) throws -> ScreenReaderSession {
        let screen = searchScreen(debounce: debounce)
        let session =
            if let speech {
                ScreenReaderSession(screen: screen, speech: speech)
            } else {
                ScreenReaderSession(screen: screen, synthesizer: try synthesizer())
            }
        try session.focus("query")
        try session.advance(by: .seconds(2))
        try session.type("jasmine", every: .milliseconds(150))
        try session.advance(by: .seconds(3))
        try session.finish()
        return session
    }
}
