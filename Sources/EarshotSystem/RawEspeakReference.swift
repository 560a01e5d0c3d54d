import CEarshot
import EarshotCore
import Foundation

/// espeak-ng used the plain way, for `earshot bench` to measure Earshot against: initialized once in this
/// process and every phrase synthesized here, one after another, with no worker processes, no isolation and no
/// cache — what a program calling libespeak-ng directly pays for the same speech.
///
/// It is a measuring stick, not a synthesizer: its audio depends on what was spoken before (the reason
/// ``EspeakSynthesizer`` never synthesizes in its own process), which does not matter for timing. It
/// initializes espeak-ng itself, so it must run in a process that has not used ``EspeakSynthesizer`` (the
/// benchmark starts a child for it) and only once per process.
public enum RawEspeakReference {
    /// What the reference spoke.
    public struct Result: Sendable, Equatable {
        /// Phrases synthesized.
        public var phrases: Int
        /// Frames of audio produced in all.
        public var frames: Int
        /// Frames per second.
        public var sampleRate: Int
    }

    /// Synthesizes every phrase in full, in order, with the voice profile given for it. `voicesDirectory` is
    /// the Voices folder whose custom variants a profile may name (as for
    /// ``EspeakSynthesizer/shared(voicesDirectory:)``).
    public static func speak(
        _ phrases: [(text: String, voice: VoiceProfile)], voicesDirectory: String?
    ) throws(EspeakError) -> Result {
        try EspeakLibrary.open()
        // A kept data folder, as Earshot's own runs have: a program calling libespeak-ng would find its variants
        // installed, not link them anew each run. No voice is linked: the reference selects voices the plain way.
        let folder = try EspeakDataFolder.prepare(voicesDirectory: voicesDirectory, keeping: true)
        // espeak-ng's synthesis needs a deep stack; the thread is the process's espeak-ng owner from here on.
        let owner = OwnerThread(name: "earshot.raw-espeak", stackSize: 4 << 20)
        return try owner.perform { () throws(EspeakError) -> Result in
            var rate: Int32 = 0
            let status = earshot_espeak_initialize(folder.path, &rate)
            guard status == Int32(EARSHOT_ESPEAK_OK) else {
                throw .initializationFailed(dataPath: folder.path, code: Int(status), message: "status \(status)")
            }
            var frames = 0
            for phrase in phrases {
                let voice = phrase.voice
                let name = voice.variant.map { "\(voice.espeakVoice)+\($0)" } ?? voice.espeakVoice
                var code = earshot_espeak_set_voice(name)
                let parameters: [(Int32, Int)] = [
                    (Int32(EARSHOT_PARAM_RATE), voice.rate), (Int32(EARSHOT_PARAM_PITCH), voice.pitch),
                    (Int32(EARSHOT_PARAM_VOLUME), voice.volume), (Int32(EARSHOT_PARAM_WORDGAP), voice.wordGap),
                ]
                for (parameter, value) in parameters where code == Int32(EARSHOT_ESPEAK_OK) {
                    code = earshot_espeak_set_parameter(parameter, Int32(value))
                }
                var stopped: Int32 = 0
                var counted = 0
                if code == Int32(EARSHOT_ESPEAK_OK) {
                    code = withUnsafeMutablePointer(to: &counted) { counter in
                        earshot_espeak_synthesize(phrase.text, -1, countFrames, counter, &stopped)
                    }
                }
                guard code == Int32(EARSHOT_ESPEAK_OK) else {
                    throw .synthesisFailed(
                        operation: "synthesize \"\(phrase.text)\" with \(name)", code: Int(code),
                        message: "status \(code)")
                }
                frames += counted
            }
            return Result(phrases: phrases.count, frames: frames, sampleRate: Int(rate))
        }
    }
}

/// The reference's sink: counts frames and keeps nothing, as a program streaming speech to a device would.
private let countFrames: earshot_speech_sink = { _, count, _, _, context in
    context?.assumingMemoryBound(to: Int.self).pointee += Int(count)
    return 0
}
