import EarshotTesting
import Testing

/// A session reports what the app posted and, beside it, the words the screen reader said for it.
@Suite struct SpokenTextTests {
    @Test func aPriceIsPostedAsWrittenAndSpokenAsWords() throws {
        let session = try ScreenReaderSessionTests.shop()
        try session.post(.announcement("Total $61.99"))
        try session.advance(by: .seconds(5))
        let total = try #require(session.announcements.first)
        #expect(total.text == "Total $61.99")
        #expect(total.spokenText == "Total 61 dollars and 99 cents")
        #expect(total.heardText == "Total $61.99")
        try session.post(.announcement("Updated"))
        try session.advance(by: .seconds(3))
        let plain = try #require(session.utterances(matching: "Updated").first)
        #expect(plain.spokenText == plain.text)
    }
}
