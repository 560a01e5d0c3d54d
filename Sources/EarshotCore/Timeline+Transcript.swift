extension Timeline {
    /// The human transcript: one line per thing heard or done, in time order; cut speech visibly cut. Speech shows
    /// the posted text; where the synthesizer was given other words, a `↳ spoken as "…"` line follows it.
    ///
    /// ```
    ///   2.000s  ⌨ type "j"
    ///   2.000s  🗣 echo       [nothing heard] j  (2.000s–2.010s)
    ///   2.010s  📱 announce "Results updated"
    ///   2.010s                ✂ typingEcho "j" cut before anything was heard, by announcement "Results updated"
    ///   2.010s  🗣 announce   Results—  (2.010s–2.150s)
    ///   2.150s  ⌨ type "a"
    ///   2.150s                ✂ announcement "Results—" cut by typingEcho "a"
    /// ```
    ///
    /// A word counts as heard once its sound has started (the first 10 ms of "j" are silent), and speech cut
    /// before any word is shown with its text, marked `[nothing heard]`.
    public func transcript(includeDropped: Bool = true) -> String {
        // Lines sort in the run's one order (instant, sequence); a speech line stands where the speech started,
        // its cut line where the cut happened, right after what caused it.
        var lines: [(at: Instant, sequence: Int, order: Int, shown: Instant, text: String)] = []
        func add(_ at: Instant, _ sequence: Int, _ text: String, shown: Instant? = nil) {
            lines.append((at, sequence, lines.count, shown ?? at, text))
        }
        for event in events {
            if let text = Self.describe(event.kind) { add(event.at, event.sequence, text) }
        }
        for record in utterances {
            let label = Self.label(record.utterance.kind).padding(toLength: 13, withPad: " ", startingAt: 0)
            switch record.outcome {
            case .spoken(let start, let end):
                add(start, record.outcomeSequence, "\(label) \(record.utterance.text)  (\(start)–\(end))")
            case .interrupted(let start, let cut, let by) where record.wasCutBeforeHeard:
                let text = record.utterance.text
                add(start, record.outcomeSequence, "\(label) [\(Self.nothingHeardMark)] \(text)  (\(start)–\(cut))")
                add(
                    cut, record.cutSequence,
                    "\(String(repeating: " ", count: 13)) ✂ \(record.utterance.kind.rawValue) \"\(text)\" cut before "
                        + "anything was heard, by \(cutterDescription(by))")
            case .interrupted(let start, let cut, let by):
                let heard = record.heardText
                add(start, record.outcomeSequence, "\(label) \(heard)—  (\(start)–\(cut))")
                add(
                    cut, record.cutSequence,
                    "\(String(repeating: " ", count: 13)) ✂ \(record.utterance.kind.rawValue) \"\(heard)—\" cut by "
                        + cutterDescription(by))
            case .dropped(let at, let reason, _) where includeDropped:
                add(at, record.outcomeSequence, "\(label) [dropped: \(reason.rawValue)] \(record.utterance.text)")
            case .speaking(let start):
                add(start, record.outcomeSequence, "\(label) \(record.utterance.text)  (\(start)–…)")
            case .pending, .dropped:
                break
            }
            // Where the synthesizer was given other words than the app posted ("$12.00" → "12 dollars").
            if let timing = record.timing, timing.spokenText != timing.text, let start = record.start {
                add(
                    start, record.outcomeSequence,
                    "\(String(repeating: " ", count: 13))  ↳ spoken as \"\(timing.spokenText)\"")
            }
        }
        lines.sort { ($0.at, $0.sequence, $0.order) < ($1.at, $1.sequence, $1.order) }
        return lines.map { line in
            let stamp = line.shown.description
            return String(repeating: " ", count: max(0, 8 - stamp.count)) + stamp + "  " + line.text
        }.joined(separator: "\n") + "\n"
    }

    /// What the speech lines call each kind.
    static func label(_ kind: UtteranceKind) -> String {
        switch kind {
        case .focusRead: return "🗣 read"
        case .hint: return "🗣 hint"
        case .announcement: return "🗣 announce"
        case .screenChange: return "🗣 screen"
        case .layoutChange: return "🗣 layout"
        case .pageScrolled: return "🗣 scrolled"
        case .poll: return "🗣 poll"
        case .typingEcho: return "🗣 echo"
        case .valueEcho: return "🗣 value"
        case .scan: return "🗣 scan"
        }
    }

    /// How the transcript words a non-speech event (`⌨ type "j"`, `◎ focus → cart (swipe next)`).
    public static func describe(_ kind: TimelineEventKind) -> String? {
        switch kind {
        case .user(let action):
            switch action {
            case .type(let character): return "⌨ type \"\(character)\""
            case .swipeNext: return "👆 swipe next"
            case .swipePrevious: return "👆 swipe previous"
            case .submit: return "⏎ submit"
            case .adjust(let direction): return "👆 swipe \(direction.rawValue)"
            case .focus(let id): return "👆 touch \(id)"
            case .activate(let id): return "👆 activate \(id ?? "")"
            }
        case .app(let text): return "📱 \(text)"
        case .load(let name, let phase): return "📱 load \(name) \(phase.rawValue)"
        case .focus(_, let to, _, let cause): return "◎ focus → \(to ?? "nothing") (\(cause))"
        case .earcon(let name, _): return "♪ earcon \(name)"
        case .sound(let name, let duration, let heard): return "♪ sound \(name) \(duration)" + (heard ? "" : " (muted)")
        case .media(let track, let heard): return "▶ media \(track.name) \(track.duration)" + (heard ? "" : " (muted)")
        case .caption(let text, let until): return "💬 caption \"\(text)\" until \(until)"
        case .visibleText(let text, let until): return "▤ shows \"\(text)\"" + (until.map { " until \($0)" } ?? "")
        case .announcementDidFinish(let id, _, let success): return "  didFinish #\(id) wasSuccessful: \(success)"
        case .scanHighlight(let id): return "▣ scan highlights \(id)"
        case .focusLost(let id): return "◎ focused \(id) disappeared"
        }
    }
}
