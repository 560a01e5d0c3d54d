import Foundation

/// Synthesizes lazily and caches by (text, voice): the engine asks for timings, renderers for audio.
///
/// Timings are kept for the whole run (they are small); audio is kept in a least-recently-used cache bounded in
/// bytes, so a 1-hour render streams with bounded memory. A phrase like "Results updated" is synthesized once.
public final class SpeechLibrary: @unchecked Sendable {
    private struct Key: Hashable {
        var text: String
        var voice: VoiceProfile
    }

    /// The synthesizer behind the library.
    public let synthesizer: any Synthesizer
    /// The bound on cached audio, in bytes.
    public let audioCacheLimit: Int
    private let lock = NSLock()
    private var timings: [Key: SpeechTiming] = [:]
    private var audio: [Key: (speech: SynthesizedSpeech, lastUse: Int)] = [:]
    private var audioBytes = 0
    private var useCounter = 0
    private var counters = Statistics()

    /// How much work the library did.
    public struct Statistics: Hashable, Sendable {
        /// Calls made to the synthesizer.
        public var synthesisCalls = 0
        /// Frames the synthesizer produced.
        public var synthesizedFrames = 0
        /// Requests answered from a cache.
        public var cacheHits = 0
    }

    /// The project's pronunciations, applied after normalization.
    public let pronunciations: PronunciationDictionary

    /// Creates a library over a synthesizer.
    public init(
        synthesizer: any Synthesizer, audioCacheLimit: Int = 64 << 20, pronunciations: PronunciationDictionary = .empty
    ) {
        self.synthesizer = synthesizer
        self.audioCacheLimit = audioCacheLimit
        self.pronunciations = pronunciations
    }

    /// What the synthesizer is given for `text` spoken by `voice`: the voice's text normalization, then the
    /// pronunciations. Every synthesis goes through here, so headless runs, WAV renders and live playback say
    /// the same words; word positions map back to the posted text.
    public func speechText(for text: String, voice: VoiceProfile) -> SpeechText {
        let normalized = TextNormalizer(settings: voice.text).speechText(for: text)
        return normalized.then(pronunciations.apply(to: normalized.spoken))
    }

    /// Frames per second of all audio.
    public var sampleRate: Int { synthesizer.sampleRate }

    /// The work done so far.
    public var statistics: Statistics { lock.withLock { counters } }

    /// The full length and word starts of `text` spoken by `voice`.
    public func timing(for text: String, voice: VoiceProfile) throws -> SpeechTiming {
        let key = Key(text: text, voice: voice)
        if let known = lock.withLock({ () -> SpeechTiming? in
            let hit = timings[key]
            if hit != nil { counters.cacheHits += 1 }
            return hit
        }) {
            return known
        }
        let speech = try synthesizeAndStore(key, frameLimit: nil)
        return lock.withLock { timings[key] }
            ?? SpeechTiming(
                text: text, speech: speech, speechText: speechText(for: text, voice: voice))
    }

    /// The first `frameLimit` frames (all when nil) of `text` spoken by `voice`: from the cache when there, else
    /// synthesized only up to the limit.
    public func audio(for text: String, voice: VoiceProfile, frameLimit: Int? = nil) throws -> [Int16] {
        let key = Key(text: text, voice: voice)
        let cached = lock.withLock { () -> SynthesizedSpeech? in
            guard var entry = audio[key] else { return nil }
            useCounter += 1
            entry.lastUse = useCounter
            audio[key] = entry
            counters.cacheHits += 1
            return entry.speech
        }
        if let cached {
            return Array(cached.samples.prefix(frameLimit ?? cached.samples.count))
        }
        let speech = try synthesizeAndStore(key, frameLimit: frameLimit)
        return Array(speech.samples.prefix(frameLimit ?? speech.samples.count))
    }

    private func synthesizeAndStore(_ key: Key, frameLimit: Int?) throws -> SynthesizedSpeech {
        let text = speechText(for: key.text, voice: key.voice)
        var speech = try synthesizer.synthesize(text.spoken, voice: key.voice, frameLimit: frameLimit)
        // Aligning words reads every sample: done before taking the lock. Words are the posted text's.
        let aligned = speech.stoppedEarly ? nil : SpeechTiming(text: key.text, speech: speech, speechText: text)
        return lock.withLock {
            counters.synthesisCalls += 1
            counters.synthesizedFrames += speech.frameCount
            guard !speech.stoppedEarly else { return speech }
            if let known = timings[key] {
                // Synthesized again after its audio was evicted. A synthesizer that gives the same samples for
                // the same text (espeak-ng does) gives the same length; one that does not has its audio fitted
                // to the length the timeline already used, so a run never changes its mind about when speech ends.
                if speech.samples.count > known.frameCount {
                    speech.samples.removeLast(speech.samples.count - known.frameCount)
                } else {
                    speech.samples += [Int16](repeating: 0, count: known.frameCount - speech.samples.count)
                }
                speech.words = known.words
            } else {
                timings[key] = aligned
            }
            storeAudio(speech, for: key)
            return speech
        }
    }

    private func storeAudio(_ speech: SynthesizedSpeech, for key: Key) {
        let bytes = speech.samples.count * 2
        guard bytes <= audioCacheLimit else { return }
        useCounter += 1
        if let old = audio[key] { audioBytes -= old.speech.samples.count * 2 }
        audio[key] = (speech, useCounter)
        audioBytes += bytes
        guard audioBytes > audioCacheLimit else { return }
        // Evict least recently used entries down to three quarters of the limit in one sorted pass, so a long
        // run pays for eviction now and then instead of scanning the cache on every insert.
        let target = audioCacheLimit / 4 * 3
        for (oldKey, entry) in audio.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard audioBytes > target else { break }
            audioBytes -= entry.speech.samples.count * 2
            audio[oldKey] = nil
        }
    }
}
