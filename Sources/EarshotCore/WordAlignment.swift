/// Where each written word of an utterance becomes audible in its samples.
///
/// espeak-ng marks a word where its first phoneme starts, and that phoneme is often a pause or the silent
/// closure of a stop: the word becomes audible 12–47 ms later ("Added to cart": "to" is marked about 30 ms
/// before its "t" sounds). It also marks pieces of one written word separately and with positions that are
/// not the word's ("1042" is read as four words marked at "042", "1042" …; "11:59" as "11" and "9"). This
/// aligns both: each written word (a run of non-space characters, without the punctuation around it) gets
/// one boundary, at the frame where its sound starts.
public enum WordAlignment {
    /// Bumped whenever the rules below change where a word is placed: stored timings of another version are
    /// never used.
    public static let version = 1
    /// The short window whose loudness decides where sound starts: 5 ms at 22050 Hz.
    static let window = 110
    /// Windows are tried this many frames apart (1 ms).
    static let step = 22
    /// A word marked while the previous word is still fading is audible from its mark, unless that sound
    /// dies away (below the threshold) within this many milliseconds of the mark.
    static let fadeMilliseconds = 20
    /// A word's loudness threshold is judged from the audio before this many milliseconds past its mark (or
    /// before the next word's mark, when that comes first): enough to hold the word's first sound.
    static let referenceMilliseconds = 100

    /// The written words of `text` that `speech` speaks, in frame order, each at the frame where it becomes
    /// audible; `mapping` takes the synthesized text's offsets back to `text` when they differ.
    ///
    /// Speech stopped early gives only the words whose start is final (see ``alignment(of:in:mapping:)``).
    public static func words(
        of text: String, in speech: SynthesizedSpeech, mapping: TextMapping? = nil
    ) -> [WordBoundary] {
        alignment(of: text, in: speech, mapping: mapping).words
    }

    /// The words of `text` in `speech` and, for speech stopped early, how far they are final.
    ///
    /// A word's start is judged from its own mark on, against a loudness threshold taken from the audio before
    /// its reference point (``referenceMilliseconds`` past the mark, or the next word's mark when sooner), so it
    /// reads no audio past the reference point or past the window where its sound starts. The first part of an
    /// utterance therefore aligns exactly as the whole does, word for word, for every word whose start that
    /// part holds: it gives those words, and `decidedFrames`, the heard frames up to which a cut lands where it
    /// would in the whole (``SpeechTiming/cut(afterFrames:)``).
    public static func alignment(
        of text: String, in speech: SynthesizedSpeech, mapping: TextMapping? = nil
    ) -> (words: [WordBoundary], decidedFrames: Int) {
        let complete = !speech.stoppedEarly
        let known = speech.samples.count
        let tokens = writtenWords(text)
        guard !tokens.isEmpty else { return ([], complete ? .max : known) }
        let loudness = Loudness(samples: speech.samples, sampleRate: speech.sampleRate)
        var aligned: [(token: Int, mark: Int)] = []
        // Only marks inside the audio: the part that was synthesized holds every mark before its end.
        for boundary in speech.words.sorted(by: { $0.frame < $1.frame }) where complete || boundary.frame < known {
            let offset = mapping?.postedOffset(boundary.textRange.lowerBound) ?? boundary.textRange.lowerBound
            // The token holding the mark, else the first one after it (a mark on a space before a word).
            guard let token = tokens.firstIndex(where: { $0.whole.upperBound > offset }) else { continue }
            if let last = aligned.last, last.token >= token { continue }
            aligned.append((token, boundary.frame))
        }
        var result: [WordBoundary] = []
        for (index, word) in aligned.enumerated() {
            // The next word's mark; in a first part without one, it lies at or past the part's end.
            let limit = index + 1 < aligned.count ? aligned[index + 1].mark : (complete ? known : .max)
            guard let start = loudness.onset(from: word.mark, before: limit, available: complete ? .max : known)
            else { break }
            result.append(
                WordBoundary(
                    frame: max(start, result.last.map { $0.frame + 1 } ?? 0), textRange: tokens[word.token].word))
        }
        guard !complete else { return (result, .max) }
        // Every later word starts at or after its mark: the first word not final, else past the audio.
        let decided = result.count < aligned.count ? aligned[result.count].mark : known
        return (result, decided)
    }

    /// Runs of non-space scalars (`whole`) with the punctuation at either end left out (`word`); runs that
    /// are all punctuation are not words.
    public static func writtenWords(_ text: String) -> [(whole: Range<Int>, word: Range<Int>)] {
        let scalars = Array(text.unicodeScalars)
        var tokens: [(whole: Range<Int>, word: Range<Int>)] = []
        var index = 0
        while index < scalars.count {
            guard !scalars[index].properties.isWhitespace else {
                index += 1
                continue
            }
            let start = index
            while index < scalars.count, !scalars[index].properties.isWhitespace { index += 1 }
            var low = start
            var high = index
            while low < high, isPunctuation(scalars[low]) { low += 1 }
            while high > low, isPunctuation(scalars[high - 1]) { high -= 1 }
            if low < high { tokens.append((start..<index, low..<high)) }
        }
        return tokens
    }

    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default:
            return false
        }
    }
}

/// Short-window loudness of one utterance's samples.
struct Loudness {
    let samples: [Int16]
    /// For each window of the grid (`window` frames apart from frame 0), the loudest window's RMS up to it.
    let peakSoFar: [Double]
    let window: Int
    let step: Int
    let fadeFrames: Int
    let referenceFrames: Int

    init(samples: [Int16], sampleRate: Int) {
        self.samples = samples
        let scale = Double(sampleRate) / 22050
        window = max(1, Int((Double(WordAlignment.window) * scale).rounded()))
        step = max(1, Int((Double(WordAlignment.step) * scale).rounded()))
        fadeFrames = sampleRate * WordAlignment.fadeMilliseconds / 1000
        referenceFrames = sampleRate * WordAlignment.referenceMilliseconds / 1000
        var peaks: [Double] = []
        peaks.reserveCapacity(samples.count / window + 1)
        var peak = 0.0
        var start = 0
        while start < samples.count {
            peak = max(peak, Self.rms(samples, start, window))
            peaks.append(peak)
            start += window
        }
        peakSoFar = peaks
    }

    /// A window at least this loud (RMS) holds audible sound, for a word whose reference point is `reference`:
    /// 1/32 of the loudest window of the grid starting before it, at least 100 (about -50 dBFS).
    func threshold(before reference: Int) -> Double {
        guard !peakSoFar.isEmpty else { return 100 }
        let last = min(peakSoFar.count - 1, max(0, reference - 1) / window)
        return max(100, peakSoFar[last] / 32)
    }

    static func rms(_ samples: [Int16], _ start: Int, _ length: Int) -> Double {
        let end = min(samples.count, start + length)
        guard start < end else { return 0 }
        // Summed in integers, so the loop vectorizes. The sum is the one a sum of Doubles gives: each square is at
        // most 2^30, so up to 2^23 of them stay below 2^53, where every partial sum of Doubles is exact.
        var sum: Int64 = 0
        samples.withUnsafeBufferPointer { buffer in
            for index in start..<end {
                let value = Int64(buffer[index])
                sum &+= value &* value
            }
        }
        return (Double(sum) / Double(end - start)).squareRoot()
    }

    func isLoud(_ start: Int, _ threshold: Double) -> Bool { Self.rms(samples, start, window) >= threshold }

    /// Where a word marked at `mark` becomes audible, before `limit` (the next word's mark): at the mark when
    /// sound is already there and does not fade out within the fade time; else the first loud window after
    /// the quiet. With no loud window before `limit` (or no audio at all), the mark itself. Nil when that needs
    /// audio past frame `available` (the end of a first part): windows, or the threshold's reference.
    func onset(from mark: Int, before limit: Int, available: Int = .max) -> Int? {
        guard mark < samples.count, mark < limit else { return mark }
        let reference = min(limit, mark + referenceFrames)
        // The grid windows starting before the reference point must lie inside the audio available.
        guard available == .max || (max(0, reference - 1) / window + 1) * window <= available else { return nil }
        let threshold = threshold(before: reference)
        func loud(_ start: Int) -> Bool? {
            available == .max || start + window <= available ? isLoud(start, threshold) : nil
        }
        var position = mark
        guard let loudAtMark = loud(mark) else { return nil }
        if loudAtMark {
            // Sound at the mark: the previous word's fading tail, or this word already.
            let fadeEnd = min(limit, mark + fadeFrames)
            while position < fadeEnd {
                guard let sounding = loud(position) else { return nil }
                if !sounding { break }
                position += step
            }
            guard position < fadeEnd else { return mark }
        }
        while position < limit, position < samples.count {
            guard let sounding = loud(position) else { return nil }
            if sounding { return position }
            position += step
        }
        return mark
    }
}

/// Maps offsets in the text given to the synthesizer back to the text the app posted, when a normalizer
/// rewrote it (`"$4.99"` read as `"4 dollars 99"`): every synthesized scalar offset has a posted offset.
public struct TextMapping: Hashable, Sendable {
    /// For each scalar offset of the synthesized text (and its end), the posted text's offset.
    public var postedOffsets: [Int]

    /// Creates a mapping from the posted offset of each synthesized offset (count + 1 entries, ascending).
    public init(postedOffsets: [Int]) {
        self.postedOffsets = postedOffsets
    }

    /// The posted offset of synthesized offset `offset` (the last one past the end).
    public func postedOffset(_ offset: Int) -> Int {
        guard !postedOffsets.isEmpty else { return offset }
        return postedOffsets[min(max(0, offset), postedOffsets.count - 1)]
    }
}
