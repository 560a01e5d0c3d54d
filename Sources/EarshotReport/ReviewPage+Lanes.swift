import EarshotCore

/// One channel of the timeline picture: a row of marks with a name.
struct TimelineLane: Sendable {
    /// The lane's name, drawn in the left gutter.
    var name: String
    /// What the lane shows, for the picture's description.
    var summary: String
    /// The marks in time order.
    var marks: [TimelineMark]
}

/// One thing drawn on a lane: a bar (speech, a sound, a caption), a tick (a key press, a focus move) or a
/// hollow dot (an utterance that never sounded).
struct TimelineMark: Sendable {
    /// How the mark is drawn.
    enum Shape: Sendable, Equatable {
        /// A bar from the mark's start to `end` (seconds); hollow when it made no sound (muted).
        case bar(end: Double, hollow: Bool)
        /// A thin vertical tick at the start.
        case tick
        /// A hollow dot at the start: something that was asked for and never heard.
        case dot
    }

    /// Where it starts, in seconds.
    var start: Double
    /// Its shape.
    var shape: Shape
    /// The short label drawn beside or inside it.
    var label: String
    /// The full description, shown as a tooltip.
    var tooltip: String
    /// The CSS class that colours it (`k-announcement`, `k-earcon` …).
    var style: String
    /// For a cut bar: the label of its cut mark, naming what cut it.
    var cut: String?

    /// Where it ends, in seconds (its start for ticks and dots).
    var end: Double {
        if case .bar(let end, _) = shape { return end }
        return start
    }
}

extension ReviewPage {
    /// The lanes of a timeline, top to bottom: input, speech, sounds, focus, on screen.
    static func lanes(of timeline: Timeline) -> [TimelineLane] {
        var input: [TimelineMark] = []
        var sounds: [TimelineMark] = []
        var focus: [TimelineMark] = []
        var screen: [TimelineMark] = []
        for event in timeline.events {
            let at = event.at.seconds
            switch event.kind {
            case .user(let action):
                let label = inputLabel(action)
                input.append(
                    TimelineMark(
                        start: at, shape: .tick, label: label, tooltip: "\(event.at) \(label)",
                        style: "k-input"))
            case .focus(_, let to, _, let cause):
                let label = "→ " + (to ?? "nothing")
                focus.append(
                    TimelineMark(
                        start: at, shape: .tick, label: label,
                        tooltip: "\(event.at) focus \(label) (\(cause))", style: "k-focus"))
            case .focusLost(let id):
                focus.append(
                    TimelineMark(
                        start: at, shape: .tick, label: "✕ \(id) gone",
                        tooltip: "\(event.at) focused \(id) disappeared", style: "k-lost"))
            case .scanHighlight(let id):
                focus.append(
                    TimelineMark(
                        start: at, shape: .tick, label: "▣ \(id)",
                        tooltip: "\(event.at) scan highlights \(id)", style: "k-scan"))
                // The mix plays Switch Control's tick for every scan step: it is a sound the user hears.
                sounds.append(
                    TimelineMark(
                        start: at, shape: .tick, label: "♪ tick",
                        tooltip: "\(event.at) scan tick (on \(id))", style: "k-scan"))
            case .earcon(let name, let duration):
                sounds.append(
                    TimelineMark(
                        start: at, shape: .bar(end: (event.at + duration).seconds, hollow: false),
                        label: "♪ \(name)", tooltip: "\(event.at) earcon \(name) \(duration)",
                        style: "k-earcon"))
            case .sound(let name, let duration, let heard):
                sounds.append(
                    TimelineMark(
                        start: at, shape: .bar(end: (event.at + duration).seconds, hollow: !heard),
                        label: "♪ \(name)" + (heard ? "" : " (muted)"),
                        tooltip: "\(event.at) sound \(name) \(duration)" + (heard ? "" : ", muted"),
                        style: "k-sound"))
            case .media(let track, let heard):
                let narration = track.narration.map { "+\($0.offset) \($0.text)" }.joined(separator: "; ")
                sounds.append(
                    TimelineMark(
                        start: at, shape: .bar(end: (event.at + track.duration).seconds, hollow: !heard),
                        label: "▶ \(track.name)" + (heard ? "" : " (muted)"),
                        tooltip: "\(event.at) media \(track.name) \(track.duration)"
                            + (heard ? "" : ", muted") + (narration.isEmpty ? "" : ": " + narration),
                        style: "k-media"))
            case .caption(let text, let until):
                screen.append(
                    TimelineMark(
                        start: at, shape: .bar(end: until.seconds, hollow: false), label: text,
                        tooltip: "\(event.at)–\(until) caption \"\(text)\"", style: "k-caption"))
            case .visibleText(let text, let shownUntil):
                // Shown for its duration (a toast), else for the rest of the run, as the checks see it.
                let until = shownUntil ?? max(timeline.end, event.at)
                screen.append(
                    TimelineMark(
                        start: at, shape: .bar(end: until.seconds, hollow: false), label: "▤ \(text)",
                        tooltip: "\(event.at)–\(until) shows \"\(text)\"", style: "k-text"))
            case .app, .load, .announcementDidFinish:
                break
            }
        }
        let speech = timeline.utterances.compactMap { speechMark($0, in: timeline) }.sorted { $0.start < $1.start }
        return [
            TimelineLane(name: "Input", summary: "user inputs", marks: input),
            TimelineLane(name: "Speech", summary: "utterances", marks: speech),
            TimelineLane(name: "Sounds", summary: "earcons, sounds and media", marks: sounds),
            TimelineLane(name: "Focus", summary: "focus moves", marks: focus),
            TimelineLane(name: "On screen", summary: "captions and visible text", marks: screen),
        ]
    }

    /// The mark for an utterance: a bar while it sounded (ending in a cut when cut), a dot when dropped or cut
    /// before anything of it was heard.
    static func speechMark(_ record: UtteranceRecord, in timeline: Timeline) -> TimelineMark? {
        let utterance = record.utterance
        let style = "k-" + utterance.kind.rawValue
        let kind = kindName(utterance.kind)
        switch record.outcome {
        case .spoken(let start, let end):
            return TimelineMark(
                start: start.seconds, shape: .bar(end: end.seconds, hollow: false),
                label: utterance.text,
                tooltip: "\(start)–\(end) \(kind) \"\(utterance.text)\" (\(utterance.cause))",
                style: style)
        case .interrupted(let start, _, let by) where record.wasCutBeforeHeard:
            return TimelineMark(
                start: start.seconds, shape: .dot, label: "∅ \(utterance.text) (\(Timeline.nothingHeardMark))",
                tooltip: "\(start) \(kind) \"\(utterance.text)\": \(Timeline.nothingHeardMark), cut before its first "
                    + "word by \(timeline.cutterDescription(by))",
                style: style)
        case .interrupted(let start, let cut, let by):
            let heard = record.heardText
            return TimelineMark(
                start: start.seconds, shape: .bar(end: cut.seconds, hollow: false),
                label: heard + "—",
                tooltip: "\(start)–\(cut) \(kind) \"\(heard)—\" of \"\(utterance.text)\", "
                    + "cut by \(timeline.cutterDescription(by))",
                style: style, cut: "✂ " + cutterName(by, in: timeline))
        case .dropped(let at, let reason, _):
            return TimelineMark(
                start: at.seconds, shape: .dot, label: "∅ " + utterance.text,
                tooltip: "\(at) \(kind) \"\(utterance.text)\" dropped: \(reason.rawValue)",
                style: style)
        case .speaking(let start):
            return TimelineMark(
                start: start.seconds, shape: .bar(end: start.seconds, hollow: false),
                label: utterance.text, tooltip: "\(start) \(kind) \"\(utterance.text)\"", style: style)
        case .pending:
            return nil
        }
    }

    /// What cut an utterance, briefly: `echo "a"`, `announce "Results up…"`, `swipe next`; a cutter that was
    /// itself never heard says so: `announce "11:30" (never heard)`.
    static func cutterName(_ interruption: Interruption, in timeline: Timeline) -> String {
        guard let id = interruption.utterance, let cutter = timeline.record(id) else {
            return shortened(interruption.description, to: 24)
        }
        let kind: String
        switch cutter.utterance.kind {
        case .focusRead: kind = "read"
        case .announcement: kind = "announce"
        case .screenChange: kind = "screen"
        case .layoutChange: kind = "layout"
        case .pageScrolled: kind = "scrolled"
        case .typingEcho: kind = "echo"
        case .valueEcho: kind = "value"
        case .hint, .poll, .scan: kind = cutter.utterance.kind.rawValue
        }
        let name = "\(kind) \"\(shortened(cutter.utterance.text, to: 12))\""
        return timeline.wasNeverHeard(id) ? name + " (never heard)" : name
    }

    /// How the legend and tooltips name an utterance kind.
    static func kindName(_ kind: UtteranceKind) -> String {
        switch kind {
        case .focusRead: return "focus read"
        case .hint: return "hint"
        case .announcement: return "announcement"
        case .screenChange: return "screen change"
        case .layoutChange: return "layout change"
        case .pageScrolled: return "page scrolled"
        case .poll: return "poll"
        case .typingEcho: return "typing echo"
        case .valueEcho: return "value echo"
        case .scan: return "scan"
        }
    }

    static func inputLabel(_ action: UserAction) -> String {
        switch action {
        case .type(let character): return "\"\(character)\""
        case .swipeNext: return "swipe →"
        case .swipePrevious: return "swipe ←"
        case .submit: return "return ⏎"
        case .adjust(let direction): return direction == .up ? "swipe ↑" : "swipe ↓"
        case .focus(let id): return "touch \(id)"
        case .activate(let id): return "activate" + (id.map { " \($0)" } ?? "")
        }
    }

    /// `text` cut to `limit` characters with an ellipsis.
    static func shortened(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(max(1, limit - 1))) + "…"
    }
}
