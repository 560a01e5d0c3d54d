import EarshotTesting
import Testing

/// docs/speech-model.md's worked cases 10 and 11 through the public API, with real espeak-ng durations.
@Suite struct JasmineSearchTests {
    @Test func announcingOnEveryKeystrokeCutsEveryEchoWithinTenMilliseconds() throws {
        let session = try TestingFixtures.jasmineSearch(debounce: nil)
        let echoes = session.utterances(ofKind: .typingEcho)
        #expect(echoes.map(\.text) == ["j", "a", "s", "m", "i", "n", "e"])
        for echo in echoes {
            #expect(echo.wasInterrupted, "\(echo)")
            #expect(echo.cutBy == "Results updated", "\(echo)")
            let heardFor = try #require(echo.duration)
            #expect(heardFor >= .milliseconds(10) && heardFor <= .milliseconds(12), "\(echo)")
        }
        let updates = session.utterances(matching: "Results updated")
        #expect(updates.count == 7)
        #expect(updates.dropLast().allSatisfy { $0.wasInterrupted && $0.kind == .announcement })
        #expect(updates.dropLast().map(\.cutBy) == ["a", "s", "m", "i", "n", "e"])
        #expect(try #require(updates.last).wasSpoken)
        #expect(session.lastSpokenPhrase == "Results updated")
        #expect(session.announcementCompletions.map(\.wasSuccessful) == Array(repeating: false, count: 6) + [true])
    }

    @Test func debouncingEchoesEveryKeyAndAnnouncesOnceSixHundredMillisecondsAfterTheLastKey() throws {
        let session = try TestingFixtures.jasmineSearch(debounce: .milliseconds(600))
        let echoes = session.utterances(ofKind: .typingEcho)
        #expect(echoes.map(\.text) == ["j", "a", "s", "m", "i", "n", "e"])
        #expect(echoes.dropLast().map(\.cutBy) == ["a", "s", "m", "i", "n", "e"])
        #expect(try #require(echoes.last).wasSpoken)
        #expect(session.announcements.map(\.text) == ["2 results"])
        let result = try #require(session.utterances(matching: "2 results").first)
        let lastKey = try #require(session.keystrokes.last)
        #expect(result.requestedAt - lastKey >= .milliseconds(600))
        #expect(result.wasSpoken)
        #expect(session.lastSpokenPhrase == "2 results")
        #expect(session.utterances(matching: /results/).count == 1)
        let lastEchoEnd = try #require(echoes.last?.end)
        let resultStart = try #require(result.start)
        #expect(session.silence(between: lastEchoEnd, and: resultStart))
    }

    @Test func transcriptsOfTheSearchWithAndWithoutDebounce() throws {
        let spam = try TestingFixtures.jasmineSearch(debounce: nil)
        let calm = try TestingFixtures.jasmineSearch(debounce: .milliseconds(600))
        print("── jasmine, announce on every key ──\n" + spam.transcript)
        print("── jasmine, 600 ms debounce ──\n" + calm.transcript)
        #expect(
            spam.transcript.contains(
                "✂ typingEcho \"j\" cut before anything was heard, by announcement \"Results updated\""))
        #expect(calm.transcript.contains("2 results"))
        #expect(!calm.transcript.contains("Results updated"))
    }
}
