import EarshotCore
import Foundation

/// How a timeline sounds beyond its speech: which voice narrates media, where app sounds live, ducking.
public struct TimelineMixOptions: Sendable {
    /// The voice that speaks media narration (`Voices/narrator.voice`).
    public var narratorVoice: VoiceProfile
    /// Whether VoiceOver's own sounds play (earcons, Switch Control ticks): false for a user without one.
    public var screenReaderSounds: Bool
    /// Whether media is ducked under VoiceOver speech.
    public var ducking: Bool
    /// Media volume while ducked, 0...1.
    public var duckingLevel: Double
    /// A folder of `NAME.wav` files for app sounds; a sound without a file (or at another rate) gets a chime.
    public var soundsDirectory: String?
    /// Gain of media narration (below VoiceOver's speech, as media is in the room).
    public var mediaGain: Double = 0.8

    /// Creates options.
    public init(
        narratorVoice: VoiceProfile, screenReaderSounds: Bool = true, ducking: Bool = true, duckingLevel: Double = 0.3,
        soundsDirectory: String? = nil
    ) {
        self.narratorVoice = narratorVoice
        self.screenReaderSounds = screenReaderSounds
        self.ducking = ducking
        self.duckingLevel = duckingLevel
        self.soundsDirectory = soundsDirectory
    }

    /// The options a user profile implies: its ducking settings, earcons only with a screen reader.
    public init(profile: UserProfile, narratorVoice: VoiceProfile, soundsDirectory: String? = nil) {
        self.init(
            narratorVoice: narratorVoice, screenReaderSounds: profile.technology != .none,
            ducking: profile.voiceOver.ducking, duckingLevel: profile.voiceOver.duckingLevel,
            soundsDirectory: soundsDirectory)
    }
}

extension TimelineMixer {
    /// Adds everything audible in `timeline`, shifted to start at output frame `offset`.
    ///
    /// - Each utterance that sounded: its audio from `speech`, at its start frame, exactly `heardFrames` long.
    ///   A cut utterance asks for only its heard frames, so when its audio is not cached synthesis stops at the
    ///   cut. Its last sample is the one before the cut instant's frame.
    /// - Earcons (screen change two-tone) and Switch Control ticks, when the profile has a screen reader.
    /// - App sounds that were heard: `soundsDirectory/NAME.wav` or a generated chime.
    /// - Media that was heard: each narration line in the narrator voice at its offset, ending with the track,
    ///   ducked under speech.
    public func add(_ timeline: Timeline, at offset: Int, speech: SpeechLibrary, options: TimelineMixOptions) {
        let rate = self.rate
        for record in timeline.utterances {
            guard let start = record.start, record.heardFrames > 0 else { continue }
            let frames = record.heardFrames
            let limit = record.wasInterrupted ? frames : nil
            let text = record.utterance.text
            let voice = record.voice
            add(
                MixClip(start: offset + start.frame(atRate: rate), length: frames, role: .speech) {
                    try speech.audio(for: text, voice: voice, frameLimit: limit)
                })
        }
        for event in timeline.events {
            let at = offset + event.at.frame(atRate: rate)
            switch event.kind {
            case .earcon(_, let duration) where options.screenReaderSounds:
                let samples = Earcon.screenChanged(duration: duration, rate: rate)
                add(MixClip(start: at, length: samples.count, role: .effect) { samples })
            case .scanHighlight where options.screenReaderSounds:
                let samples = Earcon.tick(rate: rate)
                add(MixClip(start: at, length: samples.count, role: .effect) { samples })
            case .sound(let name, let duration, let heard) where heard:
                let samples = soundSamples(named: name, duration: duration, options: options)
                add(MixClip(start: at, length: samples.count, role: .effect) { samples })
            case .media(let track, let heard) where heard:
                let trackEnd = offset + (event.at + track.duration).frame(atRate: rate)
                let ducking: Double? = options.ducking ? options.duckingLevel : nil
                for line in track.narration {
                    let lineStart = offset + (event.at + line.offset).frame(atRate: rate)
                    let length = trackEnd - lineStart
                    guard length > 0 else { continue }
                    let text = line.text
                    let voice = options.narratorVoice
                    add(
                        MixClip(
                            start: lineStart, length: length, role: .media(duckingLevel: ducking),
                            gain: options.mediaGain
                        ) {
                            try speech.audio(for: text, voice: voice, frameLimit: length)
                        })
                }
                extend(to: trackEnd)
            default:
                break
            }
        }
        extend(to: offset + timeline.end.frame(atRate: rate))
    }

    /// Adds `text` spoken by `voice` at `offset` (a label such as "Before.") and returns its length in frames.
    @discardableResult
    public func addSpeech(_ text: String, voice: VoiceProfile, at offset: Int, speech: SpeechLibrary) throws -> Int {
        let samples = try speech.audio(for: text, voice: voice)
        add(MixClip(start: offset, length: samples.count, role: .speech) { samples })
        extend(to: offset + samples.count)
        return samples.count
    }

    private func soundSamples(named name: String, duration: TimeSpan, options: TimelineMixOptions) -> [Int16] {
        if let folder = options.soundsDirectory, !name.contains("/"),
            let file = try? WAVFile.read(path: folder + "/" + name + ".wav"), file.sampleRate == rate
        {
            return file.samples
        }
        return Earcon.chime(named: name, duration: duration, rate: rate)
    }
}
