import EarshotTesting
import Foundation
import Testing

/// A 1-hour focused stopwatch (3600 value changes, 1 s polling) simulated headlessly with real espeak-ng
/// durations. Prints wall time (with synthesis, and again with every phrase already synthesized) and peak memory.
@Suite(.serialized) struct ScaleTests {
    struct Run {
        var session: ScreenReaderSession
        var wall: Duration
    }

    /// Focuses the stopwatch, starts it half a second later (off the poll ticks) and lets `minutes` pass.
    static func stopwatch(minutes: Int, speech: SpeechLibrary) throws -> Run {
        let screen = TestScreen {
            Button("start", label: "Start")
            StaticText("watch", "Stopwatch", value: "00:00:00")
                .accessibilityAddTraits(.updatesFrequently)
        }
        let clock = ContinuousClock()
        let began = clock.now
        let session = ScreenReaderSession(screen: screen, speech: speech)
        try session.focus("watch")
        try session.advance(by: .milliseconds(500))
        try session.post(.every(.seconds(1), times: minutes * 60) { .value(of: "watch", to: "\(.clock)") })
        try session.advance(by: .seconds(minutes * 60) + .seconds(1))
        try session.finish()
        return Run(session: session, wall: clock.now - began)
    }

    /// `VmHWM` (peak resident set) or `VmRSS` of this process in MB, from /proc/self/status.
    static func memory(_ field: String) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        let kilobytes = line?.split(separator: " ").dropFirst().first.flatMap { Double($0) }
        return kilobytes.map { $0 / 1024 }
    }

    @Test func aFocusedStopwatchRunningForAnHourSimulatesHeadlesslyWithSanePollCounts() throws {
        let rssBefore = Self.memory("VmRSS") ?? 0
        let speech = SpeechLibrary(synthesizer: try TestingFixtures.synthesizer(), audioCacheLimit: 0)
        let cold = try Self.stopwatch(minutes: 60, speech: speech)
        let synthesis = speech.statistics
        let warm = try Self.stopwatch(minutes: 60, speech: speech)
        let tenMinutesWarm = try Self.stopwatch(minutes: 10, speech: speech)
        let peak = Self.memory("VmHWM") ?? 0
        let rssAfter = Self.memory("VmRSS") ?? 0

        let polls = cold.session.utterances(ofKind: .poll)
        let heard = polls.filter { $0.start != nil }
        let skipped = polls.filter { $0.outcome == .dropped(reason: .channelBusy) }
        print(
            """
            scale: 1 h stopwatch, 3600 changes, 1 s polling
              with synthesis: \(cold.wall)  (\(synthesis.synthesisCalls) espeak-ng calls, \
            \(synthesis.synthesizedFrames) frames)
              all phrases cached: \(warm.wall); 10 min cached: \(tenMinutesWarm.wall)
              polls heard \(heard.count), skipped busy \(skipped.count), utterances \(cold.session.utterances.count)
              VmHWM \(peak) MB, VmRSS \(rssBefore) → \(rssAfter) MB
            """)
        #expect(cold.session.element("watch")?.value == "01:00:00")
        #expect(heard.count >= 900 && heard.count <= 3600)
        #expect(heard.count + skipped.count == polls.count)
        #expect(polls.count <= 3601)
        for (previous, next) in zip(heard, heard.dropFirst()) {
            let gap = (next.start ?? .zero) - (previous.start ?? .zero)
            if gap < .seconds(1) { Issue.record("polls \(previous) and \(next) closer than the poll interval") }
        }
        #expect(heard.allSatisfy { $0.text == cold.session.element("watch", at: $0.start ?? .zero)?.value })
        #expect(warm.session.utterances == cold.session.utterances)
        // Wall-clock time and memory are printed above, not asserted: a test must hold on a busy machine, and this
        // process's size moves with the other tests running in it. `earshot bench --scaling` measures speed as
        // ratios against raw espeak-ng; `MemoryBoundTests` bounds an hour's memory in a process of its own.
    }
}
