/// Timings kept from earlier runs: what a headless check needs of a phrase, without its audio.
///
/// ``SpeechLibrary`` asks it before synthesizing a phrase it knows nothing of yet, and hands it every timing it
/// learns that is longer than what it had. A stored timing is one the library itself aligned from the
/// synthesizer's audio (of the whole phrase, or of its first part), so adopting it says the same as
/// synthesizing again: the engine decides nothing on a part of a timing that is not yet decided.
public protocol TimingStore: AnyObject, Sendable {
    /// The timing stored for `speechText` spoken by `voice`, or nil.
    func timing(of speechText: SpeechText, voice: VoiceProfile, sampleRate: Int) -> SpeechTiming?
    /// Keeps `timing` of `speechText` spoken by `voice`.
    func store(_ timing: SpeechTiming, of speechText: SpeechText, voice: VoiceProfile)
}
