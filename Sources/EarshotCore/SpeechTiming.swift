/// How long an utterance lasts and where its words start, from the synthesizer: all of it, or as much as the
/// first part of its audio tells (an utterance that is cut needs no more than what decides the cut).
public struct SpeechTiming: Hashable, Sendable {
    /// The text as posted; word ranges are in it (`SpeechText.mapping` takes the synthesizer's marks there).
    public var text: String
    /// The text the synthesizer was given (after normalization and pronunciations); `text` when unchanged.
    public var spokenText: String
    /// Frames of audio in full when ``isComplete``; else the frames synthesized so far (the audio is longer).
    public var frameCount: Int
    /// Frames per second.
    public var sampleRate: Int
    /// The written words, in frame order, each at the frame where it becomes audible (``WordAlignment``); when
    /// not complete, the first words only, those whose start the audio so far decides.
    public var words: [WordBoundary]
    /// True when this is the whole utterance: `frameCount` is its length and `words` all its words.
    public var isComplete: Bool
    /// A cut after at most this many heard frames lands where it would in the whole utterance
    /// (``cut(afterFrames:)``); `Int.max` when complete.
    public var decidedFrames: Int

    /// Creates a timing (complete unless `decidedFrames` is given).
    public init(
        text: String, frameCount: Int, sampleRate: Int, words: [WordBoundary], spokenText: String? = nil,
        decidedFrames: Int? = nil
    ) {
        self.text = text
        self.spokenText = spokenText ?? text
        self.frameCount = frameCount
        self.sampleRate = sampleRate
        self.words = words
        self.isComplete = decidedFrames == nil
        self.decidedFrames = decidedFrames ?? .max
    }

    /// The timing of `text` from its synthesized audio: whole written words, each where its sound starts;
    /// `mapping` takes the synthesized text's offsets back to `text` when a normalizer rewrote it.
    public init(text: String, speech: SynthesizedSpeech, mapping: TextMapping? = nil) {
        let alignment = WordAlignment.alignment(of: text, in: speech, mapping: mapping)
        self.init(
            text: text, frameCount: speech.frameCount, sampleRate: speech.sampleRate, words: alignment.words,
            decidedFrames: speech.stoppedEarly ? alignment.decidedFrames : nil)
    }

    /// The timing of `speechText.posted` from the audio of `speechText.spoken`: whole posted words, each where
    /// its sound starts (a normalizer's "12 dollars" is the one posted word `$12.00`).
    public init(text: String, speech: SynthesizedSpeech, speechText: SpeechText) {
        let alignment = WordAlignment.alignment(
            of: text, in: speech, mapping: speechText.isChanged ? speechText.mapping : nil)
        self.init(
            text: text, frameCount: speech.frameCount, sampleRate: speech.sampleRate, words: alignment.words,
            spokenText: speechText.spoken, decidedFrames: speech.stoppedEarly ? alignment.decidedFrames : nil)
    }

    /// What is known of `speechText.posted` before any of it is synthesized: its texts, no audio, no words.
    public init(nothingSynthesizedOf text: String, speechText: SpeechText, sampleRate: Int) {
        self.init(
            text: text, frameCount: 0, sampleRate: sampleRate, words: [], spokenText: speechText.spoken,
            decidedFrames: 0)
    }

    /// The full duration (when complete; else how long the audio known so far lasts).
    public var duration: TimeSpan { TimeSpan.frames(frameCount, rate: sampleRate) }

    /// The text of word `index`.
    public func word(_ index: Int) -> String {
        let scalars = Array(text.unicodeScalars)
        let range = words[index].textRange.clamped(to: 0..<scalars.count)
        return String(String.UnicodeScalarView(scalars[range]))
    }

    /// What a listener heard of this utterance when it is cut after `heardFrames` frames.
    ///
    /// Exact for any cut when complete, else for `heardFrames` up to ``decidedFrames``.
    ///
    /// The word a cut lands in is the last word whose sound started before the cut; it is "fully heard" only
    /// if the next word's sound had started too. The heard text runs to the end of the word the cut landed in.
    public func cut(afterFrames heardFrames: Int) -> CutPoint {
        // Nothing is heard of a word cut at its very first frame (a cut after 0 frames hears nothing at all).
        let reached = heardFrames == 0 ? nil : words.lastIndex { $0.frame < heardFrames }
        guard let reached else {
            return CutPoint(
                heardFrames: heardFrames, heardText: "", lastFullWord: nil, cutWord: nil,
                lostWords: writtenWords(from: 0))
        }
        let scalars = Array(text.unicodeScalars)
        let end = min(words[reached].textRange.upperBound, scalars.count)
        let heard = String(String.UnicodeScalarView(scalars[0..<end]))
        let lastFull = reached > 0 ? word(reached - 1) : nil
        return CutPoint(
            heardFrames: heardFrames, heardText: heard, lastFullWord: lastFull, cutWord: word(reached),
            lostWords: writtenWords(from: words[reached].textRange.lowerBound))
    }

    /// Every written word of the text from scalar offset `start` on. espeak-ng does not mark every word (it
    /// can give two words one mark, "a while"), so the words that were lost are read from the text, not from
    /// the marks: a word with no mark of its own is still lost when the cut comes before it.
    func writtenWords(from start: Int) -> [String] {
        let scalars = Array(text.unicodeScalars)
        return WordAlignment.writtenWords(text).filter { $0.whole.upperBound > start }.map {
            String(String.UnicodeScalarView(scalars[$0.word.clamped(to: 0..<scalars.count)]))
        }
    }
}

/// Where a cut landed in an utterance.
public struct CutPoint: Hashable, Sendable {
    /// Frames heard before the cut.
    public var heardFrames: Int
    /// The text up to the end of the word the cut landed in (what the transcript shows before `—`).
    public var heardText: String
    /// The last word heard in full, if any.
    public var lastFullWord: String?
    /// The word the cut landed in (partly heard), if any.
    public var cutWord: String?
    /// The words not heard in full: the cut word and everything after it.
    public var lostWords: [String]
}
