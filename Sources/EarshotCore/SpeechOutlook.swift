/// Whether the next utterance is likely to be heard to its end, from the fates of the latest ones: the engine
/// then synthesizes it in full at once instead of part by part.
///
/// Synthesizing only what is heard asks for a first part, then more as the clock moves on. Each request has a
/// fixed cost besides its audio (espeak-ng starts a phrase from its initialized state), so an utterance heard to
/// its end costs less asked for once in full. A stopwatch read every second is heard to the end each time; a
/// burst of announcements cuts each one: the latest fates tell which kind of run this is. Only the amount of work
/// depends on it, never the timeline or the audio.
///
/// Before there are enough fates to predict, and while none was a cut, a first request asks for at least
/// ``warmUpSeconds`` of audio: most utterances end within it, so each is asked for once instead of once for its
/// first part and again for the whole (a short script never reached a prediction, and asked for each utterance
/// twice); an utterance cut early in a run costs at most that much unheard synthesis, once.
struct SpeechOutlook {
    /// How many of the latest fates count.
    static let window = 16
    /// Fewer fates than this: no prediction yet.
    static let minimum = 8
    private var fates: [Bool] = []

    /// Records an utterance that was cut (true) or heard to its end (false).
    mutating func record(cut: Bool) {
        fates.append(cut)
        if fates.count > Self.window { fates.removeFirst() }
    }

    /// True when at least ``minimum`` fates are known and at most one in four of them was a cut.
    var expectsCompletion: Bool {
        fates.count >= Self.minimum && fates.filter { $0 }.count * 4 <= fates.count
    }

    /// The audio a first request asks for at least while there is no prediction and no cut yet.
    static let warmUpSeconds = 3

    /// The frames a request asks for at least: ``warmUpSeconds`` of audio while fewer than ``minimum`` fates are
    /// known and none was a cut, else none.
    func leastFrames(sampleRate: Int) -> Int {
        fates.count < Self.minimum && !fates.contains(true) ? sampleRate * Self.warmUpSeconds : 0
    }
}
