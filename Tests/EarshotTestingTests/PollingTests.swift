import EarshotTesting
import Testing

/// V10 through the public API: a focused `.updatesFrequently` stopwatch is re-read by polling, at most once per
/// poll interval, always with its latest value, never with a backlog; real espeak-ng durations.
@Suite struct PollingTests {
    static func stopwatchSession() throws -> ScreenReaderSession {
        let screen = TestScreen {
            StaticText("watch", "Stopwatch", value: "0")
                .accessibilityAddTraits(.updatesFrequently)
            Button("reset", label: "Reset")
        }
        let session = ScreenReaderSession(screen: screen, synthesizer: try TestingFixtures.synthesizer())
        try session.focus("watch")
        // 100 ms off the poll ticks (whole seconds after the focus), so no change and tick share an instant.
        try session.advance(by: .milliseconds(100))
        try session.post(.every(.milliseconds(200), times: 50) { .value(of: "watch", to: "\(.iteration)") })
        return session
    }

    @Test func focusedStopwatchIsReadAtMostOncePerPollIntervalWithTheLatestValue() throws {
        let session = try Self.stopwatchSession()
        try session.advance(to: .seconds(10) + .milliseconds(500))
        let polls = session.utterances(ofKind: .poll)
        let heard = polls.filter { $0.start != nil }
        #expect(heard.count >= 5 && heard.count <= 10, "\(session.transcript)")
        for (previous, next) in zip(heard, heard.dropFirst()) {
            let gap = try #require(next.start) - (try #require(previous.start))
            #expect(gap >= .seconds(1), "\(previous) then \(next)")
        }
        for poll in heard {
            let start = try #require(poll.start)
            let latest = session.element("watch", at: start)?.value
            #expect(poll.text == latest, "\(poll)")
        }
        let values = heard.compactMap { Int($0.text) }
        #expect(values == values.sorted() && Set(values).count == values.count)
        #expect(polls.allSatisfy { $0.start != nil || $0.outcome == .dropped(reason: .channelBusy) })
    }

    @Test func pollingStopsWhenFocusLeavesTheStopwatch() throws {
        let session = try Self.stopwatchSession()
        try session.advance(to: .seconds(3) + .milliseconds(500))
        try session.swipeNext()
        let left = session.now
        try session.advance(to: .seconds(10) + .milliseconds(500))
        #expect(session.utterances(ofKind: .poll).allSatisfy { ($0.start ?? $0.requestedAt) < left })
        #expect(session.element("watch")?.value == "50")
        #expect(session.spokenPhraseLog.last == "Reset, button")
    }
}
