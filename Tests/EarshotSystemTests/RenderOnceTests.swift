import EarshotAudio
import EarshotBench
import EarshotCore
import EarshotScript
import EarshotSystem
import Foundation
import Testing

/// A render mixes the audio the engine synthesized: with audio spilled beyond a small memory bound, no phrase is
/// synthesized again for the mix, however long the run, and the spill file never outlives the library.
@Suite(.serialized) struct RenderOnceTests {
    /// Forwards to espeak-ng and records every request; fails from request `failingFrom` on, when given.
    final class CountingSynthesizer: Synthesizer, @unchecked Sendable {
        let base: any Synthesizer
        let failingFrom: Int?
        /// A folder whose open files are listed when the failure comes (``openAtFailure``).
        let watching: String?
        private let lock = NSLock()
        private var recorded: [(text: String, frameLimit: Int?)] = []
        private(set) var openAtFailure: [String] = []

        init(base: any Synthesizer, failingFrom: Int? = nil, watching: String? = nil) {
            self.base = base
            self.failingFrom = failingFrom
            self.watching = watching
        }

        var sampleRate: Int { base.sampleRate }
        var requests: [(text: String, frameLimit: Int?)] { lock.withLock { recorded } }

        func synthesize(_ text: String, voice: VoiceProfile, frameLimit: Int?) throws -> SynthesizedSpeech {
            let count = lock.withLock { () -> Int in
                recorded.append((text, frameLimit))
                return recorded.count
            }
            if let failingFrom, count >= failingFrom {
                if let watching, openAtFailure.isEmpty { openAtFailure = RenderOnceTests.openFiles(in: watching) }
                throw CocoaError(.fileWriteOutOfSpace)
            }
            return try base.synthesize(text, voice: voice, frameLimit: frameLimit)
        }
    }

    /// What a render did: its WAV's bytes, the requests made while the engine ran and while it mixed.
    struct Render {
        var wav: [UInt8]
        var engineRequests: Int
        var mixRequests: [(text: String, frameLimit: Int?)]
        var statistics: SpeechLibrary.Statistics
    }

    /// Runs `source` and mixes it to a WAV as `earshot render` does; `inspect` sees the library before it goes.
    static func render(
        _ source: String, synthesizer: CountingSynthesizer, synthesis: SpeechLibrary.Synthesis,
        audioCacheLimit: Int, spillDirectory: String?, output: String, inspect: (SpeechLibrary) -> Void = { _ in }
    ) throws -> Render {
        let document = try ScenarioParser.parse(source: source, path: "stopwatch.earshot")
        let profile = try ScenarioRunner.profile(for: document)
        let speech = SpeechLibrary(
            synthesizer: synthesizer, audioCacheLimit: audioCacheLimit, spillDirectory: spillDirectory,
            synthesis: synthesis)
        let run = try ScenarioRunner.run(document, profile: profile, voice: .standard, speech: speech)
        let engineRequests = synthesizer.requests.count
        let mixer = TimelineMixer(rate: speech.sampleRate)
        mixer.add(
            run.timeline, at: 0, speech: speech, options: TimelineMixOptions(profile: profile, narratorVoice: .standard)
        )
        let writer = try WAVWriter(path: output, sampleRate: speech.sampleRate)
        try mixer.render(to: writer)
        try writer.finish(syncingFolder: false)
        inspect(speech)
        return Render(
            wav: Array(try Data(contentsOf: URL(fileURLWithPath: output))), engineRequests: engineRequests,
            mixRequests: Array(synthesizer.requests.dropFirst(engineRequests)), statistics: speech.statistics)
    }

    /// Open descriptors of this process that point into `directory`.
    static func openFiles(in directory: String) -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)
        }
        .filter { $0.hasPrefix(directory + "/") }
    }

    static func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "earshot-render-once-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path + "/spill", withIntermediateDirectories: true)
        return path
    }

    @Test(arguments: [SpeechLibrary.Synthesis.asHeard, .whole])
    func aLongRenderWithATinyMemoryBoundSynthesizesNoPhraseTwice(synthesis: SpeechLibrary.Synthesis) throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = ScalingWorkload.stopwatch(seconds: 90)
        let espeak = try SpeechFixtures.synthesizer()
        let large = try Self.render(
            source, synthesizer: CountingSynthesizer(base: espeak), synthesis: synthesis, audioCacheLimit: 64 << 20,
            spillDirectory: nil, output: folder + "/large.wav")
        let counting = CountingSynthesizer(base: espeak)
        var spillFiles: [String] = []
        var listed: [String] = []
        let tiny = try Self.render(
            source, synthesizer: counting, synthesis: synthesis, audioCacheLimit: 16 << 10,
            spillDirectory: folder + "/spill", output: folder + "/tiny.wav"
        ) { _ in
            spillFiles = Self.openFiles(in: folder + "/spill")
            listed = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/spill")) ?? ["unreadable"]
        }
        #expect(tiny.wav == large.wav, "the WAV with a 16 KB bound differs from the one with 64 MB")
        #expect(tiny.statistics.spilledFrames > 10 * 22_050, "spilled \(tiny.statistics.spilledFrames) frames")
        #expect(tiny.mixRequests.isEmpty, "the mix synthesized again: \(tiny.mixRequests.map(\.text))")
        // Each phrase: one request in full synthesis; as heard, each request for a phrase asks for more than the
        // ones before it (a first part, then the rest), never the same audio twice.
        var largest: [String: Int] = [:]
        var repeated: [String] = []
        for request in counting.requests {
            let limit = request.frameLimit ?? .max
            if let before = largest[request.text], before >= limit || synthesis == .whole {
                repeated.append(request.text)
            }
            largest[request.text] = max(largest[request.text] ?? 0, limit)
        }
        #expect(repeated.isEmpty, "synthesized again: \(repeated)")
        #expect(largest.count > 40, "\(largest.count) distinct phrases")
        // The spill file was open while the library lived, without a name; nothing is left after it.
        #expect(spillFiles.count == 1 && spillFiles.allSatisfy { $0.hasSuffix(" (deleted)") }, "\(spillFiles)")
        #expect(listed.isEmpty, "the spill folder held \(listed)")
        #expect(Self.openFiles(in: folder + "/spill").isEmpty)
    }

    /// Without a spill folder, audio beyond the bound is forgotten and the mix synthesizes it again: the
    /// counterpart that shows the test above can fail.
    @Test func withoutASpillFolderTheMixSynthesizesForgottenAudioAgain() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let render = try Self.render(
            ScalingWorkload.stopwatch(seconds: 30),
            synthesizer: CountingSynthesizer(base: try SpeechFixtures.synthesizer()),
            synthesis: .asHeard, audioCacheLimit: 16 << 10, spillDirectory: nil, output: folder + "/out.wav")
        #expect(render.mixRequests.count > 20)
        #expect(render.statistics.spilledFrames == 0)
    }

    @Test func aRenderThatFailsLeavesNoSpillFile() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var failure: (any Error)?
        // Fails once the engine has spilled a good part of the stopwatch.
        let synthesizer = CountingSynthesizer(
            base: try SpeechFixtures.synthesizer(), failingFrom: 25, watching: folder + "/spill")
        do {
            _ = try Self.render(
                ScalingWorkload.stopwatch(seconds: 60), synthesizer: synthesizer, synthesis: .asHeard,
                audioCacheLimit: 16 << 10, spillDirectory: folder + "/spill", output: folder + "/out.wav")
        } catch {
            failure = error
        }
        #expect(failure != nil)
        #expect(synthesizer.openAtFailure.count == 1, "the spill file was not open when the run failed")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.wav"))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder + "/spill")) == [])
        #expect(Self.openFiles(in: folder + "/spill").isEmpty)
    }

    @Test func aSpillFolderThatCannotBeWrittenIsNamedInTheError() throws {
        let source = ScalingWorkload.stopwatch(seconds: 20)
        #expect {
            _ = try Self.render(
                source, synthesizer: CountingSynthesizer(base: try SpeechFixtures.synthesizer()), synthesis: .asHeard,
                audioCacheLimit: 1, spillDirectory: "/nonexistent/earshot-spill",
                output: NSTemporaryDirectory() + "never.wav")
        } throws: { error in
            "\(error)".contains("/nonexistent/earshot-spill")
        }
        #expect(!FileManager.default.fileExists(atPath: NSTemporaryDirectory() + "never.wav"))
    }
}
