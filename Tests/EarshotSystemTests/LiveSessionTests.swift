import EarshotCore
import EarshotScript
import EarshotSystem
import Foundation
import Testing

/// The one engine driven from real time on a paced device: the live run of a script with known cuts agrees with
/// its headless run, and the recorded monitor shows each cut where the timeline puts it.
@Suite(.serialized) struct LiveSessionTests {
    static let rate = 22050
    static let beforeSearch = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scripts/announcement-spam/before-search.earshot").path

    private func prepared(_ speech: SpeechLibrary) throws -> (ScenarioDocument, Simulation) {
        let document = try ScenarioParser.parse(
            source: try String(contentsOfFile: Self.beforeSearch, encoding: .utf8), path: Self.beforeSearch)
        let profile = try ScenarioRunner.profile(for: document)
        return (document, ScenarioRunner.prepare(document, profile: profile, voice: .standard, speech: speech))
    }

    /// The bounds below are on real time. A virtual machine sharing its host can stall a whole run for tens of
    /// milliseconds (once in a CI run: starts up to 23 ms and a cut 25 ms off where every other run measured under
    /// 4 ms), which says nothing about the engine. Up to three runs are made; a run within every timing bound is
    /// judged in full, and so is the third run whatever it measured, so an engine that is slow every time still
    /// fails.
    @Test func theBeforeSearchScriptPlaysLiveWithTheHeadlessCutsAndTheRecordingAgrees() throws {
        for attempt in 1...3 where try sessionScenario(judgedWhateverItsTiming: attempt == 3) {
            return
        }
    }

    /// One live run of before-search against its headless run. Returns false, having judged nothing, when a timing
    /// bound was missed and `judgedWhateverItsTiming` is false; otherwise judges everything and returns true.
    private func sessionScenario(judgedWhateverItsTiming: Bool) throws -> Bool {
        let sink = try PacedSink()
        defer { sink.stop() }
        let speech = SpeechLibrary(synthesizer: try SpeechFixtures.synthesizer())
        let (document, simulation) = try prepared(speech)
        let headless = try ScenarioRunner.run(
            document, profile: try ScenarioRunner.profile(for: document), voice: .standard, speech: speech)
        let clock = RealTimeClock()
        let player = try LivePlayer(device: sink.device, sampleRate: Self.rate, clock: clock)
        defer { player.close() }
        try sink.startRecording(to: NSTemporaryDirectory() + "earshot-session-\(UUID().uuidString).raw")
        let session = LiveSession(simulation: simulation, player: player, clock: clock)
        let ending = try session.run(scriptEnd: document.endTime)
        let recording = try sink.stopRecording()
        guard case .scriptEnded = ending else {
            Issue.record("the run ended with \(ending)")
            return true
        }
        let measured = player.measurements

        // The recording: locate the focus read (0 s), then every announcement where the timeline puts it.
        let heard = simulation.timeline.heardUtterances
        let read = try #require(heard.first)
        let readSamples = try speech.audio(for: read.utterance.text, voice: .standard)
        // A stretch 300 ms into the read: the stream's first milliseconds can be smeared by PulseAudio starting it.
        let readOnset = try #require(AudioMatch.onset(readSamples)) + 6615
        let opening = AudioMatch.locate(
            readSamples[readOnset..<(readOnset + 4410)], in: recording, lags: 0..<min(recording.count - 4410, 30870))
        let origin = opening.lag - readOnset
        let announcements = heard.filter { $0.utterance.kind == .announcement }
        var found: [(id: UtteranceID, score: Double, leak: Double?)] = []
        var offsets: [Double] = []
        for record in announcements {
            let samples = try speech.audio(for: record.utterance.text, voice: .standard)
            let onset = try #require(AudioMatch.onset(samples))
            let length = min(1100, record.heardFrames - onset - 110)
            try #require(length > 400, "announcement \(record.utterance.id) has too little voiced audio before its cut")
            let expected = origin + (record.start ?? .zero).frame(atRate: Self.rate) + onset
            let match = AudioMatch.locate(
                samples[onset..<(onset + length)], in: recording, lags: (expected - 661)..<(expected + 662))
            offsets.append(Double(match.lag - expected) / Double(Self.rate))
            var leak: Double?
            if record.wasInterrupted {
                // Past the cut, the cut announcement's own continuation is not in the recording.
                let from = record.heardFrames + 441
                leak = AudioMatch.bestMatch(
                    of: samples[from..<(from + 661)], in: recording,
                    lags: (expected - onset + from - 110)..<(expected - onset + from + 110)
                ).score
            }
            found.append((record.utterance.id, match.score, leak))
        }
        let spread = (offsets.max() ?? 0) - (offsets.min() ?? 0)
        print("live session: \(measured.summary); announcement offsets vs the timeline spread over \(spread * 1000) ms")

        // A heard utterance with no measured start never reached the device (its start and its cut came together
        // after a stall): a start later than any bound.
        let timely =
            measured.starts.count == heard.count && measured.starts.allSatisfy { $0.latency <= .milliseconds(30) }
            && measured.cuts.allSatisfy {
                $0.silentAfter <= .milliseconds(15) && abs($0.positionError.nanoseconds) <= 20_000_000
            } && spread < 0.015
        guard timely || judgedWhateverItsTiming else {
            print("live session: a stalled run; again")
            return false
        }

        // Same engine, same timeline: the live transcript is the headless one.
        #expect(simulation.timeline.transcript() == headless.timeline.transcript())
        let cutRecords = simulation.timeline.utterances.filter(\.wasInterrupted)
        #expect(cutRecords.count == 13)
        #expect(measured.cuts.count == cutRecords.count)
        #expect(measured.starts.count == simulation.timeline.heardUtterances.count)
        for start in measured.starts { #expect(start.latency <= .milliseconds(30), "start latency \(start.latency)") }
        for cut in measured.cuts {
            #expect(cut.silentAfter <= .milliseconds(15), "interrupt → silent \(cut.silentAfter)")
            #expect(abs(cut.positionError.nanoseconds) <= 20_000_000, "device − engine \(cut.positionError)")
        }
        #expect(opening.score > 0.9)
        #expect(announcements.count == 7)
        for announcement in found {
            #expect(announcement.score > 0.8, "announcement \(announcement.id) after its cut (score \(announcement.score))")
            if let leak = announcement.leak {
                #expect(leak < 0.5, "announcement \(announcement.id) went on past its cut (\(leak))")
            }
        }
        #expect(spread < 0.015, "announcements land \(offsets.map { $0 * 1000 }) ms from the timeline")
        return true
    }

    @Test func stopSilencesTheDeviceAndFinishesTheTimeline() throws {
        let speech = SpeechLibrary(synthesizer: try SpeechFixtures.synthesizer())
        let (_, simulation) = try prepared(speech)
        let clock = RealTimeClock()
        let player = try LivePlayer(device: "null", sampleRate: Self.rate, clock: clock)
        defer { player.close() }
        let session = LiveSession(simulation: simulation, player: player, clock: clock)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { session.stop() }
        let started = Date()
        let ending = try session.run(scriptEnd: nil)
        guard case .stopped = ending else {
            Issue.record("ended with \(ending)")
            return
        }
        #expect(Date().timeIntervalSince(started) < 1.5)
        // The focus read was sounding at 0.5 s: the timeline says it was cut when the run ended.
        let read = try #require(simulation.timeline.utterances.first)
        #expect(read.wasInterrupted)
        #expect(simulation.timeline.transcript().contains("cut by scenario ended"))
    }

    @Test func aDeviceThatDisappearsEndsTheRunWithItsErrorAndKeepsTheTimeline() throws {
        let sink = try PacedSink()
        defer { sink.stop() }
        let speech = SpeechLibrary(synthesizer: try SpeechFixtures.synthesizer())
        let (document, simulation) = try prepared(speech)
        let clock = RealTimeClock()
        let player = try LivePlayer(device: sink.device, sampleRate: Self.rate, clock: clock)
        defer { player.close() }
        let session = LiveSession(simulation: simulation, player: player, clock: clock)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { sink.killDaemon() }
        let ending = try session.run(scriptEnd: document.endTime)
        guard case .deviceLost(let error) = ending else {
            Issue.record("ended with \(ending)")
            return
        }
        #expect(error.device == "pulse")
        #expect(!error.message.isEmpty)
        #expect(simulation.now < .seconds(2.5))
        #expect(simulation.timeline.transcript().contains("Search products"))
    }
}
