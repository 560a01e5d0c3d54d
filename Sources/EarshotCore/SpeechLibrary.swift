import Foundation

/// Synthesizes lazily and caches by (text, voice): the engine asks for timings, renderers for audio.
///
/// Only what is heard is synthesized: the engine asks how far an utterance's audio reaches or where a cut lands,
/// and the library synthesizes the first part of the phrase that answers it (espeak-ng stops at a frame limit),
/// asking again with a limit at least twice as large when more is needed, so the work stays within a small
/// factor of the audio heard. An utterance that is never cut is synthesized to its end; one cut after a word
/// costs that word and a margin. ``Synthesis/whole`` synthesizes every phrase in full at once: the reference the
/// tests and the benchmark compare with (same timeline, same audio).
///
/// Timings are kept for the whole run (they are small). Audio is kept in memory up to `audioCacheLimit` bytes;
/// beyond that it is forgotten, least recently used first, or with a `spillDirectory` written to a nameless
/// temporary file there, so a render mixes every phrase from the audio the engine made, with memory bounded by
/// the setting and not by the scenario. A phrase like "Results updated" is synthesized once.
public final class SpeechLibrary: @unchecked Sendable {
    struct Key: Hashable {
        var text: String
        var voice: VoiceProfile
    }

    /// How much of a phrase is synthesized when the engine asks about it.
    public enum Synthesis: Sendable {
        /// As far as the question needs: what is heard, plus the margin that decides where a cut lands.
        case asHeard
        /// Every phrase in full the first time: the reference for tests and benchmarks.
        case whole
    }

    /// The synthesizer behind the library.
    public let synthesizer: any Synthesizer
    /// The bound on audio kept in memory, in bytes.
    public let audioCacheLimit: Int
    /// How much of a phrase is synthesized.
    public let synthesis: Synthesis
    /// The frames synthesized past the point a question is about: enough, for most words, to judge where the
    /// word being heard starts (``WordAlignment``); when not, the library asks again.
    public var lookaheadFrames: Int { synthesizer.sampleRate * 15 / 100 }
    /// Guards everything below; signalled when a phrase stops being busy.
    private let lock = NSCondition()
    private var timings: [Key: SpeechTiming] = [:]
    /// Phrases a thread is looking up in the timing store or synthesizing: another thread asking about one waits
    /// and looks again, so two scripts of a folder run never synthesize the same phrase at once, nor one of them
    /// while the other reads its stored timing.
    private var busy: Set<Key> = []
    /// The largest frame limit asked for each phrase not yet synthesized in full.
    private var limits: [Key: Int] = [:]
    private let store: SpeechAudioStore<Key>
    private var counters = Statistics()
    /// Timings kept from earlier runs, asked once per phrase before it is first synthesized.
    public let timingStore: (any TimingStore)?
    /// Phrases the timing store was asked about.
    private var consulted: Set<Key> = []
    /// What the synthesizer is given for each phrase, worked out once per phrase.
    private var spokenTexts: [Key: SpeechText] = [:]

    /// How much work the library did.
    public struct Statistics: Hashable, Sendable {
        /// Calls made to the synthesizer.
        public var synthesisCalls = 0
        /// Frames the synthesizer produced.
        public var synthesizedFrames = 0
        /// Requests answered from a cache.
        public var cacheHits = 0
        /// Frames of audio written to the spill file.
        public var spilledFrames = 0
        /// Phrases whose timing came from the timing store.
        public var storedTimings = 0
    }

    /// The project's pronunciations, applied after normalization.
    public let pronunciations: PronunciationDictionary

    /// Creates a library over a synthesizer.
    ///
    /// - Parameters:
    ///   - audioCacheLimit: the bound on audio kept in memory, in bytes (0 keeps none: timings only).
    ///   - spillDirectory: a folder for audio beyond the bound (a nameless file, gone when the process ends);
    ///     nil forgets that audio, and a renderer synthesizes it again when it needs it.
    ///   - synthesis: how much of a phrase is synthesized (``Synthesis/asHeard`` unless for a reference run).
    ///   - timingStore: timings kept from earlier runs (the phrase cache), asked before synthesizing.
    public init(
        synthesizer: any Synthesizer, audioCacheLimit: Int = 64 << 20, pronunciations: PronunciationDictionary = .empty,
        spillDirectory: String? = nil, synthesis: Synthesis = .asHeard, timingStore: (any TimingStore)? = nil
    ) {
        self.timingStore = timingStore
        self.synthesizer = synthesizer
        self.audioCacheLimit = audioCacheLimit
        self.pronunciations = pronunciations
        self.synthesis = synthesis
        self.store = SpeechAudioStore(memoryLimit: audioCacheLimit, spillDirectory: spillDirectory)
    }

    /// A library with the same synthesizer, settings and timing store, and nothing synthesized yet: for work that
    /// must not keep this one's audio (each script of a folder rendered in one process keeps its own, within the
    /// bound, and lets it go when it is done).
    public func emptyCopy() -> SpeechLibrary {
        SpeechLibrary(
            synthesizer: synthesizer, audioCacheLimit: audioCacheLimit, pronunciations: pronunciations,
            spillDirectory: store.spillDirectory, synthesis: synthesis, timingStore: timingStore)
    }

    /// What the synthesizer is given for `text` spoken by `voice`: the voice's text normalization, then the
    /// pronunciations. Every synthesis goes through here, so headless runs, WAV renders and live playback say
    /// the same words; word positions map back to the posted text.
    public func speechText(for text: String, voice: VoiceProfile) -> SpeechText {
        let normalized = TextNormalizer(settings: voice.text).speechText(for: text)
        return normalized.then(pronunciations.apply(to: normalized.spoken))
    }

    /// ``speechText(for:voice:)`` of `key`, remembered: a phrase's normalization is asked for by its known timing,
    /// the timing store and each synthesis.
    private func speechText(_ key: Key) -> SpeechText {
        if let known = lock.withLock({ spokenTexts[key] }) { return known }
        let text = speechText(for: key.text, voice: key.voice)
        lock.withLock { spokenTexts[key] = text }
        return text
    }

    /// Frames per second of all audio.
    public var sampleRate: Int { synthesizer.sampleRate }

    /// The work done so far.
    public var statistics: Statistics {
        lock.withLock {
            var current = counters
            current.spilledFrames = store.spilledFrames
            return current
        }
    }

    /// The full length and word starts of `text` spoken by `voice`.
    public func timing(for text: String, voice: VoiceProfile) throws -> SpeechTiming {
        try timing(Key(text: text, voice: voice), needing: .max) { $0.isComplete }
    }

    /// What is known of `text` spoken by `voice` without synthesizing anything more.
    public func knownTiming(for text: String, voice: VoiceProfile) -> SpeechTiming {
        lock.withLock { timings[Key(text: text, voice: voice)] }
            ?? SpeechTiming(
                nothingSynthesizedOf: text, speechText: speechText(Key(text: text, voice: voice)),
                sampleRate: sampleRate)
    }

    /// A timing of `text` spoken by `voice` that is complete or holds more than `frames` frames: the utterance
    /// surely sounds that long. A timing known already answers; else espeak-ng is asked for at least `least`
    /// frames (a request's fixed cost is then paid once for an utterance likely to last that long).
    public func timing(
        for text: String, voice: VoiceProfile, beyond frames: Int, askingAtLeast least: Int = 0
    ) throws -> SpeechTiming {
        let needed = frames == .max ? frames : max(frames + 1, least)
        return try timing(Key(text: text, voice: voice), needing: needed) { $0.isComplete || $0.frameCount > frames }
    }

    /// A timing of `text` spoken by `voice` whose ``SpeechTiming/cut(afterFrames:)`` is exact after `frames`
    /// heard frames: where a cut then lands, as in the whole utterance.
    public func timing(for text: String, voice: VoiceProfile, decidedThrough frames: Int) throws -> SpeechTiming {
        try timing(Key(text: text, voice: voice), needing: frames) { $0.decidedFrames >= frames }
    }

    /// Synthesizes more of `key` until `answers` holds: each time at least twice the previous limit, and at
    /// least `needed` frames plus the lookahead. While another thread works on `key`, waits and looks again.
    private func timing(_ key: Key, needing needed: Int, answers: (SpeechTiming) -> Bool) throws -> SpeechTiming {
        var first = true
        while true {
            let (known, asked, answered) = lock.withLock { () -> (SpeechTiming?, Int, Bool) in
                while busy.contains(key) { lock.wait() }
                let known = timings[key]
                let answered = known.map(answers) ?? false
                if first, answered { counters.cacheHits += 1 }
                // Not answered: this thread works on the phrase (the store, else espeak-ng) until it looks again.
                if !answered { busy.insert(key) }
                return (known, limits[key] ?? 0, answered)
            }
            if answered, let known { return known }
            defer {
                lock.withLock {
                    busy.remove(key)
                    lock.broadcast()
                }
            }
            if let stored = storedTiming(key) {
                if answers(stored) { return stored }
                continue
            }
            first = false
            let limit: Int?
            switch synthesis {
            case .whole: limit = nil
            case .asHeard:
                let wanted = needed >= Int.max - lookaheadFrames ? Int.max : needed + lookaheadFrames
                let doubled = asked > Int.max / 2 ? Int.max : 2 * asked
                let chosen = max(wanted, doubled, known?.frameCount ?? 0)
                limit = chosen == Int.max ? nil : chosen
            }
            _ = try synthesizeAndStore(key, frameLimit: limit)
        }
    }

    /// The timing store's timing of `key` when it is asked for the first time and holds more than the library
    /// knows; the library keeps it.
    private func storedTiming(_ key: Key) -> SpeechTiming? {
        guard let timingStore, lock.withLock({ consulted.insert(key).inserted }) else { return nil }
        let text = speechText(key)
        guard let stored = timingStore.timing(of: text, voice: key.voice, sampleRate: sampleRate),
            stored.text == key.text
        else { return nil }
        return lock.withLock { () -> SpeechTiming? in
            if let known = timings[key], known.isComplete || known.frameCount >= stored.frameCount { return nil }
            timings[key] = stored
            if stored.isComplete { limits[key] = nil }
            counters.storedTimings += 1
            return stored
        }
    }

    /// The first `frameLimit` frames (all when nil) of `text` spoken by `voice`: from the audio kept when it
    /// reaches that far, else synthesized only up to the limit.
    public func audio(for text: String, voice: VoiceProfile, frameLimit: Int? = nil) throws -> [Int16] {
        let key = Key(text: text, voice: voice)
        let kept = try lock.withLock { () -> SpeechAudioStore<Key>.Entry? in
            guard let extent = store.extent(of: key), extent.isComplete || extent.frames >= (frameLimit ?? .max)
            else { return nil }
            counters.cacheHits += 1
            return try store.entry(for: key)
        }
        if let kept {
            return frameLimit.map { Array(kept.samples.prefix($0)) } ?? kept.samples
        }
        let speech = try synthesizeAndStore(key, frameLimit: frameLimit)
        return Array(speech.samples.prefix(frameLimit ?? speech.samples.count))
    }

    private func synthesizeAndStore(_ key: Key, frameLimit: Int?) throws -> SynthesizedSpeech {
        let text = speechText(key)
        var speech = try synthesizer.synthesize(text.spoken, voice: key.voice, frameLimit: frameLimit)
        // Aligning words reads every sample: done before taking the lock. Words are the posted text's.
        let aligned = SpeechTiming(text: key.text, speech: speech, speechText: text)
        var learned: SpeechTiming?
        defer { if let learned { timingStore?.store(learned, of: text, voice: key.voice) } }
        return try lock.withLock {
            counters.synthesisCalls += 1
            counters.synthesizedFrames += speech.frameCount
            if let frameLimit { limits[key] = max(limits[key] ?? 0, frameLimit) }
            if let known = timings[key], known.isComplete {
                // Synthesized again after its audio was forgotten. A synthesizer that gives the same samples for
                // the same text (espeak-ng does) gives the same length; one that does not has its audio fitted
                // to the length the timeline already used, so a run never changes its mind about when speech ends.
                if !speech.stoppedEarly {
                    if speech.samples.count > known.frameCount {
                        speech.samples.removeLast(speech.samples.count - known.frameCount)
                    } else {
                        speech.samples += [Int16](repeating: 0, count: known.frameCount - speech.samples.count)
                    }
                }
                speech.words = known.words
            } else if aligned.isComplete || aligned.frameCount > (timings[key]?.frameCount ?? -1) {
                timings[key] = aligned
                if aligned.isComplete { limits[key] = nil }
                learned = aligned
            }
            try store.store(
                SpeechAudioStore.Entry(samples: speech.samples, isComplete: !speech.stoppedEarly), for: key)
            return speech
        }
    }
}
