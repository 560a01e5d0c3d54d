import EarshotCore
import Testing

@testable import EarshotSystem

/// A phrase synthesized whole (a headless run or a render) comes from its helper process in as few messages as
/// fit, streamed (playback) chunk by chunk: the same samples and events either way.
@Suite struct WholePhraseTests {
    struct Received: Equatable {
        var samples: [Int16] = []
        var events: [SpeechEvent] = []
        var stopped = false
        var chunks = 0
    }

    private func receive(_ text: String, voice: VoiceProfile, frameLimit: Int?, streaming: Bool) throws -> Received {
        var received = Received()
        received.stopped = try SpeechFixtures.synthesizer().synthesize(
            text, voice: voice, frameLimit: frameLimit, streaming: streaming
        ) { chunk, events in
            received.samples += chunk
            received.events += events
            received.chunks += 1
            return true
        }
        return received
    }

    static let long = (1...40).map { "Order \($0) of 40 has shipped." }.joined(separator: " ")

    /// A request goes to the worker in one send; a text longer than the socket's buffer (about 200 KB) leaves part
    /// of it for the rest of the request, which must still arrive whole and in order: the phrase's start is the same
    /// as when the text is short.
    @Test func aTextLongerThanTheSocketBufferReachesTheWorkerWhole() throws {
        let voice = SpeechFixtures.voice(rate: 185)
        let short = try receive("Results updated. Done.", voice: voice, frameLimit: 8_000, streaming: false)
        let padding = String(repeating: " Done.", count: 60_000)
        let long = try receive("Results updated." + padding, voice: voice, frameLimit: 8_000, streaming: false)
        #expect(short.samples.count == 8_000)
        let same = long.samples == short.samples
        #expect(same, "\(long.samples.count) samples, not the short text's start")
    }

    @Test(arguments: [
        ("Results updated", nil as Int?), ("Results updated", 4_000), (WholePhraseTests.long, nil),
        (WholePhraseTests.long, 150_000), ("", nil),
    ])
    func aWholePhraseIsTheStreamedOneInFewerChunks(text: String, frameLimit: Int?) throws {
        let voice = SpeechFixtures.voice(rate: 185)
        let whole = try receive(text, voice: voice, frameLimit: frameLimit, streaming: false)
        let streamed = try receive(text, voice: voice, frameLimit: frameLimit, streaming: true)
        #expect(whole.samples.count == streamed.samples.count)
        // Compared outside #expect: a failing comparison of arrays this long would be diffed for the message.
        let sameSamples = whole.samples == streamed.samples
        let sameEvents = whole.events == streamed.events
        #expect(sameSamples)
        #expect(whole.events.count == streamed.events.count)
        #expect(sameEvents)
        #expect(whole.stopped == streamed.stopped)
        // Up to about 2 s of audio is one chunk; the long phrase (over 200 words, 84 s) needs several.
        let capacity = 49_152
        #expect(whole.chunks <= max(1, (whole.samples.count + capacity - 1) / capacity) + whole.events.count / 64)
        if whole.samples.count > 22_050 { #expect(whole.chunks < streamed.chunks) }
    }
}
