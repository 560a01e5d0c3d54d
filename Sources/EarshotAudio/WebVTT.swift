import EarshotCore

/// A WebVTT transcript (W3C WebVTT): what was heard, cue by cue, cut cues visibly cut.
///
/// ```
/// WEBVTT
///
/// 1
/// 00:00:00.500 --> 00:00:00.510
/// j— ✂ cut by announcement “Results updated”
/// ```
///
/// Cue text escapes `&`, `<` and `>` (the only characters WebVTT cue text reserves) and never contains
/// `-->` or a blank line. Cues are ordered by start time, then end time.
public struct WebVTT: Hashable, Sendable {
    /// One cue.
    public struct Cue: Hashable, Sendable {
        /// When it starts.
        public var start: Instant
        /// When it ends (after `start`).
        public var end: Instant
        /// The plain text shown (escaped when written).
        public var text: String
        /// True for a `NOTE` block instead of a cue: what happened at `start` that no one heard (a cut at an
        /// utterance's first frame has no time span to show as a cue). Notes are not numbered or displayed.
        public var isNote: Bool

        /// Creates a cue (or, with `isNote`, a note at `start`).
        public init(start: Instant, end: Instant, text: String, isNote: Bool = false) {
            self.start = start
            self.end = end
            self.text = text
            self.isNote = isNote
        }
    }

    /// The mark that ends a cut cue.
    public static let cutMark = "— ✂"

    /// The cues.
    public var cues: [Cue]

    /// Creates a transcript of cues (sorted when written).
    public init(cues: [Cue] = []) { self.cues = cues }

    /// The cues for one timeline, shifted by `offset`: one per utterance that sounded, with what was heard, and
    /// one per narration line of heard media (prefixed with the track's name).
    ///
    /// A cut cue reads `heard text—✂ cut by kind “text”` (or the cause, e.g. `swipe next`), and says
    /// `(itself never heard)` after a cutter no one heard. An utterance cut before anything of it was heard
    /// is a note: `NOTE 00:00:30.000 nothing heard: announcement “11:30”, cut by …`.
    public static func cues(for timeline: Timeline, offset: TimeSpan = .zero) -> [Cue] {
        var cues: [Cue] = []
        for record in timeline.utterances {
            if record.wasCutBeforeHeard, let start = record.start, case .interrupted(_, _, let by) = record.outcome {
                let text =
                    "\(Timeline.nothingHeardMark): \(record.utterance.kind.rawValue) “\(record.utterance.text)”, "
                    + "cut before its first word by " + cutter(by, in: timeline)
                cues.append(Cue(start: start + offset, end: start + offset, text: text, isNote: true))
                continue
            }
            guard let start = record.start, let stop = record.stop, stop > start else { continue }
            var text = record.heardText
            if case .interrupted(_, _, let by) = record.outcome {
                text += cutMark + " cut by " + cutter(by, in: timeline)
            }
            cues.append(Cue(start: start + offset, end: stop + offset, text: text))
        }
        for event in timeline.events {
            guard case .media(let track, let heard) = event.kind, heard else { continue }
            let trackEnd = event.at + track.duration
            for line in track.narration where event.at + line.offset < trackEnd {
                cues.append(
                    Cue(
                        start: event.at + line.offset + offset, end: trackEnd + offset,
                        text: "[\(track.name)] \(line.text)"))
            }
        }
        return cues
    }

    /// `announcement “Results updated”` for an utterance that cut, else the interruption's own description.
    static func cutter(_ interruption: Interruption, in timeline: Timeline) -> String {
        guard let id = interruption.utterance, let record = timeline.record(id) else { return interruption.description }
        let name = "\(record.utterance.kind.rawValue) “\(record.utterance.text)”"
        return timeline.wasNeverHeard(id) ? name + " " + Timeline.cutterNeverHeardNote : name
    }

    /// The document: `WEBVTT`, a blank line, then numbered cues in time order.
    public var document: String {
        let ordered = cues.enumerated().sorted {
            ($0.element.start, $0.element.end, $0.offset) < ($1.element.start, $1.element.end, $1.offset)
        }
        var text = "WEBVTT\n"
        var number = 0
        for cue in ordered.map(\.element) {
            if cue.isNote {
                // A note's text may not hold `-->`; escaping `>` sees to that.
                text += "\nNOTE \(Self.timestamp(cue.start)) \(Self.escape(cue.text))\n"
                continue
            }
            number += 1
            text += "\n\(number)\n\(Self.timestamp(cue.start)) --> \(Self.timestamp(cue.end))\n"
            text += Self.escape(cue.text) + "\n"
        }
        return text
    }

    /// `hh:mm:ss.ttt`, milliseconds rounded down.
    public static func timestamp(_ instant: Instant) -> String {
        let total = max(0, instant.milliseconds)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(total / 3_600_000, 2)):\(pad(total / 60_000 % 60, 2)):\(pad(total / 1000 % 60, 2))."
            + pad(total % 1000, 3)
    }

    /// Cue text made safe: `&amp;`, `&lt;`, `&gt;`; line breaks become spaces (a blank line would end the cue).
    public static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\n", "\r", "\r\n": result += " "
            default: result.append(character)
            }
        }
        return result
    }
}
