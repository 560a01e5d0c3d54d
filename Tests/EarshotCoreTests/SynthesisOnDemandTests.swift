import EarshotCore
import Foundation
import Testing

/// The pieces that let the engine synthesize only what is heard: tasks whose deadline is worked out when the
/// clock gets there, and a library that synthesizes a phrase's first part, growing it as questions need.
@Suite struct SynthesisOnDemandTests {
    // MARK: Scheduler

    /// A task with an open deadline runs, among tasks due at one instant, where a task scheduled with that
    /// deadline at the same moment would have: before tasks scheduled after it.
    @Test func anOpenDeadlineKeepsThePlaceItTookWhenScheduled() {
        let scheduler = Scheduler()
        var order: [String] = []
        let end = Instant.zero + .milliseconds(500)
        scheduler.schedule(
            notBefore: .zero,
            resolving: { horizon in horizon.map { $0 < end ? .after($0 + .milliseconds(1)) : .at(end) } ?? .at(end) }
        ) { order.append("open") }
        scheduler.schedule(at: end) { order.append("later") }
        scheduler.schedule(at: .zero + .milliseconds(100)) { order.append("early") }
        scheduler.advance(to: .zero + .seconds(1))
        #expect(order == ["early", "open", "later"])
        // Rescheduling it at its deadline once known (a new place in the order) would put it after "later".
        let again = Scheduler()
        var naive: [String] = []
        again.schedule(at: end) { naive.append("later") }
        again.schedule(at: end) { naive.append("open") }
        again.advance(to: .zero + .seconds(1))
        #expect(naive == ["later", "open"])
    }

    /// The owner is asked only when its task is the next one due, with the next other task's deadline or the
    /// clock's target as the horizon, and not at all once cancelled.
    @Test func anOpenDeadlineIsAskedWithTheHorizonOnlyWhenItIsNext() {
        let scheduler = Scheduler()
        var horizons: [Instant?] = []
        let id = scheduler.schedule(
            notBefore: .zero + .milliseconds(10),
            resolving: { horizon in
                horizons.append(horizon)
                return horizon.map { .after($0 + .milliseconds(5)) } ?? .at(.zero + .seconds(9))
            }
        ) {}
        scheduler.schedule(at: .zero + .milliseconds(300)) {}
        scheduler.advance(to: .zero + .milliseconds(5))
        #expect(horizons.isEmpty, "asked before it could be due")
        scheduler.advance(to: .zero + .milliseconds(100))
        #expect(horizons == [.zero + .milliseconds(100)])
        // Asked for the next deadline, it must know whether it comes before the task at 300 ms.
        #expect(scheduler.nextDeadline == .zero + .milliseconds(300))
        #expect(horizons == [.zero + .milliseconds(100), .zero + .milliseconds(300)])
        scheduler.advance(to: .zero + .milliseconds(400))
        let expected: [Instant?] = [100, 300, 400].map { Instant.zero + .milliseconds($0) }
        #expect(horizons == expected)
        scheduler.cancel(id)
        #expect(scheduler.nextDeadline == nil)
        #expect(horizons.count == 3)
    }

    /// With nothing else scheduled, `nextDeadline` asks for the deadline itself (no horizon): it is exact.
    @Test func theNextDeadlineOfAnOpenTaskIsItsResolvedDeadline() {
        let scheduler = Scheduler()
        scheduler.schedule(
            notBefore: .zero, resolving: { $0.map { .after($0 + .milliseconds(1)) } ?? .at(.zero + .seconds(2)) }
        ) {}
        #expect(scheduler.nextDeadline == .zero + .seconds(2))
    }

    // MARK: Library

    /// Speech that lasts 10 ms per character, loud throughout, marking each word; records each frame limit.
    final class LimitRecorder: Synthesizer, @unchecked Sendable {
        let sampleRate = 22050
        private let lock = NSLock()
        private var recorded: [Int?] = []
        var limits: [Int?] { lock.withLock { recorded } }

        func synthesize(_ text: String, voice: VoiceProfile, frameLimit: Int?) throws -> SynthesizedSpeech {
            lock.withLock { recorded.append(frameLimit) }
            let perCharacter = sampleRate / 100
            let scalars = Array(text.unicodeScalars)
            var words: [WordBoundary] = []
            for (index, scalar) in scalars.enumerated()
            where !scalar.properties.isWhitespace && (index == 0 || scalars[index - 1].properties.isWhitespace) {
                let end = scalars[index...].firstIndex { $0.properties.isWhitespace } ?? scalars.count
                words.append(WordBoundary(frame: index * perCharacter, textRange: index..<end))
            }
            let full = scalars.count * perCharacter
            let count = min(frameLimit ?? full, full)
            return SynthesizedSpeech(
                samples: (0..<count).map { $0 % 2 == 0 ? 3000 : -3000 }, sampleRate: sampleRate,
                words: words.filter { $0.frame < count }, stoppedEarly: count < full)
        }
    }

    static let sentence = String(repeating: "word ", count: 60) + "end"

    @Test func aCutEarlyInALongPhraseSynthesizesOnlyItsFirstPart() throws {
        let synthesizer = LimitRecorder()
        let library = SpeechLibrary(synthesizer: synthesizer)
        let timing = try library.timing(for: Self.sentence, voice: .standard, decidedThrough: 2_000)
        let whole = try SpeechLibrary(synthesizer: LimitRecorder()).timing(for: Self.sentence, voice: .standard)
        #expect(!timing.isComplete && timing.decidedFrames >= 2_000)
        #expect(timing.cut(afterFrames: 2_000) == whole.cut(afterFrames: 2_000))
        #expect(synthesizer.limits == [2_000 + library.lookaheadFrames])
        #expect(library.statistics.synthesizedFrames < whole.frameCount / 5)
    }

    /// Asked for more, the library asks at least twice the previous limit: the work stays within a small factor
    /// of the audio the questions reach, however many questions.
    @Test func eachFurtherRequestAtLeastDoublesTheLimit() throws {
        let synthesizer = LimitRecorder()
        let library = SpeechLibrary(synthesizer: synthesizer)
        var frames = 100
        while try !library.timing(for: Self.sentence, voice: .standard, beyond: frames).isComplete { frames += 500 }
        let limits = synthesizer.limits
        #expect(limits.count >= 3 && limits.count <= 6, "\(limits)")
        for (earlier, later) in zip(limits, limits.dropFirst()) {
            let earlierLimit: Int = earlier ?? .max
            let laterLimit: Int = later ?? .max
            let doubled = laterLimit == .max || laterLimit >= 2 * earlierLimit
            #expect(doubled, "\(limits)")
        }
        // Already known: answered without synthesizing.
        _ = try library.timing(for: Self.sentence, voice: .standard, decidedThrough: frames)
        #expect(synthesizer.limits.count == limits.count)
    }

    @Test func wholeSynthesisAsksForEveryPhraseInFullOnce() throws {
        let synthesizer = LimitRecorder()
        let library = SpeechLibrary(synthesizer: synthesizer, synthesis: .whole)
        let timing = try library.timing(for: Self.sentence, voice: .standard, decidedThrough: 10)
        _ = try library.timing(for: Self.sentence, voice: .standard, beyond: 50_000)
        #expect(timing.isComplete)
        #expect(synthesizer.limits == [nil])
    }

    /// Runs announcements `spacing` apart (each about 0.6 s long) with a task every 100 ms besides, so every
    /// utterance outlives several horizons; returns the frame limits asked for each announcement, in order.
    static func limitsPerAnnouncement(spacing: TimeSpan, count: Int) throws -> [[Int?]] {
        final class PerText: Synthesizer, @unchecked Sendable {
            let base = LimitRecorder()
            var sampleRate: Int { base.sampleRate }
            private let lock = NSLock()
            private(set) var byText: [String: [Int?]] = [:]
            func synthesize(_ text: String, voice: VoiceProfile, frameLimit: Int?) throws -> SynthesizedSpeech {
                lock.withLock { byText[text, default: []].append(frameLimit) }
                return try base.synthesize(text, voice: voice, frameLimit: frameLimit)
            }
        }
        let synthesizer = PerText()
        let simulation = Simulation(screens: [], speech: SpeechLibrary(synthesizer: synthesizer))
        let texts = (0..<count).map { "announcement number \($0) of a long list, read in full" }
        for (index, text) in texts.enumerated() {
            simulation.schedule(
                [.announce(.literal(text), priority: .default, queued: false)], at: .zero + spacing * index)
        }
        for tick in 1...(count * Int(spacing.nanoseconds / 100_000_000) + 20) {
            simulation.scheduler.schedule(at: .zero + .milliseconds(Int64(100 * tick))) {}
        }
        try simulation.finish(at: .zero + spacing * count + .seconds(2))
        return texts.map { synthesizer.byText[$0] ?? [] }
    }

    /// [SpeechOutlook] Once the latest utterances were nearly all heard to their end, each new one is asked for
    /// in full, once. Before that, while none was cut, each is asked for once with at least its first 3 s (these
    /// end within it); in a run where utterances are cut, part by part from the first cut on.
    @Test func utterancesHeardToTheirEndAreSoonAskedForInFullOnce() throws {
        let warmUp = LimitRecorder().sampleRate * 3
        let heard = try Self.limitsPerAnnouncement(spacing: .seconds(1), count: 20)
        #expect(
            heard.prefix(8).allSatisfy { $0.count == 1 && ($0[0] ?? .max) >= warmUp }, "the first: \(heard.prefix(8))")
        #expect(heard.dropFirst(8).allSatisfy { $0 == [nil] }, "the later ones: \(heard.dropFirst(8))")
        let cut = try Self.limitsPerAnnouncement(spacing: .milliseconds(250), count: 20)
        #expect(cut.allSatisfy { !$0.contains(nil) }, "cut ones were asked for in full: \(cut)")
        #expect(cut.first == [warmUp + LimitRecorder().sampleRate * 15 / 100], "the first, before any cut: \(cut)")
        #expect(
            cut.dropFirst().allSatisfy { $0.allSatisfy { ($0 ?? .max) < warmUp } }, "after the first cut: \(cut)")
    }

    /// Audio the engine synthesized (a first part) serves a mix that needs no more of it; a mix that needs more
    /// synthesizes that much.
    @Test func theAudioOfAFirstPartServesWhatItCovers() throws {
        let synthesizer = LimitRecorder()
        let library = SpeechLibrary(synthesizer: synthesizer)
        _ = try library.timing(for: Self.sentence, voice: .standard, decidedThrough: 2_000)
        let part = try library.audio(for: Self.sentence, voice: .standard, frameLimit: 2_000)
        #expect(part.count == 2_000 && synthesizer.limits.count == 1)
        let whole = try library.audio(for: Self.sentence, voice: .standard)
        #expect(synthesizer.limits.count == 2 && synthesizer.limits.last == .some(nil))
        #expect(Array(whole.prefix(2_000)) == part)
    }

    /// Beyond the memory bound, audio goes to the spill file and comes back the same; with no spill folder it
    /// is forgotten and synthesized again.
    @Test(arguments: [true, false])
    func audioBeyondTheMemoryBoundIsSpilledOrForgotten(spilling: Bool) throws {
        let folder = NSTemporaryDirectory() + "earshot-spill-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let synthesizer = LimitRecorder()
        let library = SpeechLibrary(
            synthesizer: synthesizer, audioCacheLimit: 30_000, spillDirectory: spilling ? folder : nil)
        let texts = (1...8).map { "phrase number \($0) of eight" }
        let first = try texts.map { try library.audio(for: $0, voice: .standard) }
        let again = try texts.map { try library.audio(for: $0, voice: .standard) }
        #expect(again == first)
        #expect(spilling ? synthesizer.limits.count == 8 : synthesizer.limits.count > 12)
        #expect((library.statistics.spilledFrames > 0) == spilling)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}
