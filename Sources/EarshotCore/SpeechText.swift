/// An utterance's text twice: as the app posted it and as the screen reader speaks it, with which part of one
/// became which part of the other.
///
/// The normalizer and the pronunciation dictionary produce it once per text; the synthesizer is given `spoken`,
/// and everything a listener is said to have heard (cut points, checks, transcripts) is mapped back to `posted`
/// through `postedRange(ofSpoken:)`, so `$12.00` is one posted word even though two words are spoken for it.
public struct SpeechText: Hashable, Sendable {
    /// One stretch of the posted text and what is spoken for it.
    public struct Piece: Hashable, Sendable {
        /// The posted stretch, in Unicode scalar offsets.
        public var posted: Range<Int>
        /// What is spoken for it, in Unicode scalar offsets of `spoken`.
        public var spoken: Range<Int>
        /// True when the spoken text is the posted text unchanged (offsets then map one to one).
        public var isVerbatim: Bool
    }

    /// The text as the app posted it.
    public let posted: String
    /// The text given to the synthesizer.
    public let spoken: String
    /// Consecutive pieces covering both texts from start to end.
    public let pieces: [Piece]

    /// Text spoken exactly as posted.
    public init(verbatim text: String) {
        let count = text.unicodeScalars.count
        posted = text
        spoken = text
        pieces = count == 0 ? [] : [Piece(posted: 0..<count, spoken: 0..<count, isVerbatim: true)]
    }

    /// Builds a speech text from pieces in order: each is a posted stretch and what is spoken for it.
    public init(posted: String, parts: [(postedCount: Int, spoken: String, verbatim: Bool)]) {
        var spokenText = ""
        var pieces: [Piece] = []
        var postedOffset = 0
        var spokenOffset = 0
        for part in parts where part.postedCount > 0 || !part.spoken.isEmpty {
            let spokenCount = part.spoken.unicodeScalars.count
            let piece = Piece(
                posted: postedOffset..<postedOffset + part.postedCount,
                spoken: spokenOffset..<spokenOffset + spokenCount, isVerbatim: part.verbatim)
            // Neighbouring verbatim pieces merge, so plain text stays one piece.
            if piece.isVerbatim, let last = pieces.last, last.isVerbatim {
                pieces[pieces.count - 1] = Piece(
                    posted: last.posted.lowerBound..<piece.posted.upperBound,
                    spoken: last.spoken.lowerBound..<piece.spoken.upperBound, isVerbatim: true)
            } else {
                pieces.append(piece)
            }
            spokenText += part.spoken
            postedOffset += part.postedCount
            spokenOffset += spokenCount
        }
        self.posted = posted
        self.spoken = spokenText
        self.pieces = pieces
    }

    /// A speech text from pieces already laid out (used when composing two rewrites).
    init(posted: String, pieces: [Piece], spoken: String) {
        self.posted = posted
        self.spoken = spoken
        self.pieces = pieces
    }

    /// True when the synthesizer is given something other than the posted text.
    public var isChanged: Bool { posted != spoken }

    /// The posted stretch a spoken word came from: the same characters where the text was kept, else the whole
    /// posted stretch that was rewritten (`$12.00` for both "12" and "dollars").
    public func postedRange(ofSpoken range: Range<Int>) -> Range<Int> {
        guard let first = piece(containing: range.lowerBound) else {
            let end = pieces.last?.posted.upperBound ?? 0
            return end..<end
        }
        let last = piece(containing: max(range.lowerBound, range.upperBound - 1)) ?? first
        let lower =
            first.isVerbatim
            ? first.posted.lowerBound + (range.lowerBound - first.spoken.lowerBound) : first.posted.lowerBound
        let upper =
            last.isVerbatim
            ? min(last.posted.upperBound, last.posted.lowerBound + (range.upperBound - last.spoken.lowerBound))
            : last.posted.upperBound
        return lower..<max(lower, upper)
    }

    /// The posted offset of every spoken scalar offset (and of the spoken end), for aligning the synthesizer's
    /// word marks with the posted words.
    public var mapping: TextMapping {
        let count = spoken.unicodeScalars.count
        var offsets = (0..<count).map { postedRange(ofSpoken: $0..<$0 + 1).lowerBound }
        offsets.append(posted.unicodeScalars.count)
        return TextMapping(postedOffsets: offsets)
    }

    private func piece(containing offset: Int) -> Piece? {
        pieces.first { $0.spoken.contains(offset) } ?? pieces.last { $0.spoken.lowerBound <= offset }
    }
}

extension SpeechText {
    /// This text with its spoken side rewritten again by `next` (whose posted side is this `spoken`): the
    /// result maps the final spoken words straight back to this `posted` text.
    public func then(_ next: SpeechText) -> SpeechText {
        guard next.isChanged else { return self }
        guard isChanged else { return SpeechText(posted: posted, pieces: next.pieces, spoken: next.spoken) }
        // Each piece of `next` covers a stretch of this spoken text; find the posted stretch it came from.
        var result: [(posted: Range<Int>, spoken: Range<Int>, verbatim: Bool)] = []
        func add(_ postedRange: Range<Int>, _ spokenRange: Range<Int>, _ verbatim: Bool) {
            let cursor = result.last?.posted.upperBound ?? 0
            if let last = result.last, postedRange.lowerBound < cursor {
                result[result.count - 1] = (
                    last.posted.lowerBound..<max(cursor, postedRange.upperBound),
                    last.spoken.lowerBound..<spokenRange.upperBound, false
                )
                return
            }
            if postedRange.lowerBound > cursor {
                // Posted characters said as nothing (a silent mark) stay attached, spoken as nothing.
                result.append((cursor..<postedRange.lowerBound, spokenRange.lowerBound..<spokenRange.lowerBound, false))
            }
            result.append((postedRange, spokenRange, verbatim))
        }
        for piece in next.pieces {
            if piece.isVerbatim {
                for mine in pieces where mine.spoken.overlaps(piece.posted) {
                    let lower = max(mine.spoken.lowerBound, piece.posted.lowerBound)
                    let upper = min(mine.spoken.upperBound, piece.posted.upperBound)
                    let spokenLower = piece.spoken.lowerBound + (lower - piece.posted.lowerBound)
                    let spokenRange = spokenLower..<spokenLower + (upper - lower)
                    if mine.isVerbatim {
                        let postedLower = mine.posted.lowerBound + (lower - mine.spoken.lowerBound)
                        add(postedLower..<postedLower + (upper - lower), spokenRange, true)
                    } else {
                        add(mine.posted, spokenRange, false)
                    }
                }
            } else {
                add(postedRange(ofSpoken: piece.posted), piece.spoken, false)
            }
        }
        let postedCount = posted.unicodeScalars.count
        let cursor = result.last?.posted.upperBound ?? 0
        if cursor < postedCount {
            let end = result.last?.spoken.upperBound ?? 0
            result.append((cursor..<postedCount, end..<end, false))
        }
        return SpeechText(
            posted: posted,
            pieces: result.map { Piece(posted: $0.posted, spoken: $0.spoken, isVerbatim: $0.verbatim) },
            spoken: next.spoken)
    }
}
