/// How much an anti-pattern costs the user (the scale axe-core and Accessibility Inspector users know).
public enum Impact: String, Hashable, Sendable, Comparable, CaseIterable {
    case minor, moderate, serious, critical

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    public static func < (lhs: Impact, rhs: Impact) -> Bool { lhs.rank < rhs.rank }
}

/// An anti-pattern a pattern card names, found in a timeline whatever the script's own checks say.
public struct Finding: Hashable, Sendable {
    /// The rule's stable id, e.g. `announcement-while-typing`.
    public var rule: String
    /// How much it costs the user.
    public var impact: Impact
    /// The pattern to read about (its page is `docs/patterns/<card>.md`).
    public var card: String
    /// When it first happened.
    public var at: Instant
    /// What happened, with evidence (times, phrases).
    public var message: String
    /// How many times it happened in the run.
    public var occurrences: Int
}

/// The rules behind `Finding`s: pure functions of a timeline.
public enum FindingRules {
    /// One rule: its id, impact, card and what it means.
    public struct Rule: Hashable, Sendable {
        public var id: String
        public var impact: Impact
        public var card: String
        public var summary: String
    }

    /// Every rule, in the order reports list them.
    public static let all: [Rule] = [
        Rule(
            id: "announcement-while-typing", impact: .serious, card: "announcement-spam",
            summary: "an announcement is posted while the user is still typing"),
        Rule(
            id: "echo-cut-by-announcement", impact: .serious, card: "announcement-spam",
            summary: "the echo of a typed character is cut by an announcement"),
        Rule(
            id: "announcement-cut-by-announcement", impact: .serious, card: "meaningful-announcement",
            summary: "an announcement is cut by the app's next announcement"),
        Rule(
            id: "announcement-never-heard", impact: .serious, card: "meaningful-announcement",
            summary: "an announcement is posted and never heard: dropped, or cut before its first word"),
        Rule(
            id: "focus-read-cut-by-announcement", impact: .moderate, card: "announcement-spam",
            summary: "what VoiceOver was reading for the user is cut by an announcement"),
        Rule(
            id: "announcement-flood", impact: .serious, card: "announcement-spam",
            summary: "more than 5 announcements in 10 seconds"),
        Rule(
            id: "empty-announcement", impact: .moderate, card: "meaningful-announcement",
            summary: "the app posts speech with no words: nothing is said, yet it can cut what was being read"),
        Rule(
            id: "placeholder-exposed", impact: .serious, card: "skeleton-noise",
            summary: "a loading placeholder is in the accessibility tree and is reached as content"),
        Rule(
            id: "sound-without-text", impact: .critical, card: "audio-only-task",
            summary: "a sound or media track carries information no text shows"),
        Rule(
            id: "stale-poll-backlog", impact: .moderate, card: "updates-frequently",
            summary: "a polled value is spoken after it has already changed"),
        Rule(
            id: "silent-changing-value", impact: .moderate, card: "updates-frequently",
            summary:
                "the focused element's text keeps changing and VoiceOver says nothing (it needs .updatesFrequently)"),
    ]

    /// The rule with an id.
    public static func rule(_ id: String) -> Rule? { all.first { $0.id == id } }

    /// Every finding in a timeline, most serious first, then by time.
    public static func findings(in timeline: Timeline, typingGap: TimeSpan = .seconds(1)) -> [Finding] {
        var found: [String: Finding] = [:]
        func note(_ id: String, _ at: Instant, _ message: String) {
            guard let rule = rule(id) else { return }
            if var existing = found[id] {
                existing.occurrences += 1
                found[id] = existing
            } else {
                found[id] = Finding(
                    rule: id, impact: rule.impact, card: rule.card, at: at, message: message, occurrences: 1)
            }
        }
        let announcements = timeline.utterances.filter(\.utterance.isAppSpeech)
        // Keystrokes in time order: the ones either side of an announcement are found by bisection, not a scan.
        let keys = timeline.keystrokes.sorted()
        for record in announcements {
            let at = record.utterance.requestedAt
            let next = keys.partitionPoint { $0 > at }
            if next > 0, next < keys.count, case let (before, after) = (keys[next - 1], keys[next]),
                after - before <= typingGap
            {
                note(
                    "announcement-while-typing", at,
                    "\"\(record.utterance.text)\" posted at \(at) between keystrokes at \(before) and \(after)")
            }
            if !record.utterance.text.contains(where: { $0.isLetter || $0.isNumber }) {
                note(
                    "empty-announcement", at,
                    "\(record.utterance.kind.rawValue) \"\(record.utterance.text)\" posted at \(at)")
            }
        }
        for record in timeline.utterances {
            // A cut after 0 frames replaced speech before it made a sound: nothing was lost to the listener.
            guard case .interrupted(_, let cut, let by) = record.outcome, record.heardFrames > 0,
                let cutter = by.utterance,
                let cutting = timeline.record(cutter), cutting.utterance.isAppSpeech
            else { continue }
            let shown =
                record.wasCutBeforeHeard
                ? "\"\(record.utterance.text)\" (\(Timeline.nothingHeardMark))" : "\"\(record.heardText)—\""
            let heard = "\(shown) cut at \(cut) by \"\(cutting.utterance.text)\""
            switch record.utterance.kind {
            case .typingEcho: note("echo-cut-by-announcement", cut, "echo " + heard)
            case .announcement, .pageScrolled,
                .layoutChange where record.utterance.isAppSpeech:
                note("announcement-cut-by-announcement", cut, "announcement " + heard)
            case .focusRead, .screenChange, .layoutChange:
                note("focus-read-cut-by-announcement", cut, "focus read " + heard)
            default: break
            }
        }
        for record in announcements {
            if let (at, fate) = neverHeard(record, in: timeline) {
                note(
                    "announcement-never-heard", at,
                    "\"\(record.utterance.text)\" posted at \(record.utterance.requestedAt) and never heard: \(fate)")
            }
        }
        let times = announcements.map(\.utterance.requestedAt)
        for (index, start) in times.enumerated() {
            let inWindow = times[index...].prefix { $0 - start < .seconds(10) }.count
            if inWindow > 5 {
                note(
                    "announcement-flood", start,
                    "\(inWindow) announcements between \(start) and \(start + .seconds(10))")
                break
            }
        }
        placeholderFindings(timeline, note)
        soundFindings(timeline, note)
        pollFindings(timeline, note)
        return found.values.sorted { a, b in
            if a.impact != b.impact { return a.impact > b.impact }
            if a.at != b.at { return a.at < b.at }
            return a.rule < b.rule
        }
    }

    /// When and how app speech was lost: dropped, or cut before its first word was heard. Speech that the
    /// profile never speaks (sound off) or that the scenario's end stopped is not the app's doing.
    static func neverHeard(_ record: UtteranceRecord, in timeline: Timeline) -> (Instant, String)? {
        switch record.outcome {
        case .dropped(let at, let reason, _):
            guard reason != .speechOff, reason != .scenarioEnded else { return nil }
            return (at, "dropped at \(at) (\(reason.rawValue))")
        case .interrupted(_, let cut, let by) where record.wasCutBeforeHeard:
            guard by.utterance != nil || cut < timeline.end else { return nil }
            return (cut, "cut at \(cut) before its first word by \(timeline.cutterDescription(by))")
        case .pending, .speaking, .spoken, .interrupted:
            return nil
        }
    }

    private static func placeholderFindings(_ timeline: Timeline, _ note: (String, Instant, String) -> Void) {
        var lookup = SnapshotLookup(timeline)
        for event in timeline.events {
            let id: String?
            switch event.kind {
            case .focus(_, let to, _, _): id = to
            case .scanHighlight(let element): id = element
            default: id = nil
            }
            guard let id, let element = lookup.element(id, at: event.at), element.isPlaceholder else {
                continue
            }
            note(
                "placeholder-exposed", event.at,
                "placeholder \(id) \"\(element.spokenDescription())\" reached at \(event.at)")
        }
    }

    private static func soundFindings(_ timeline: Timeline, _ note: (String, Instant, String) -> Void) {
        for event in timeline.events {
            switch event.kind {
            case .sound(let name, let duration, _):
                let window = (event.at - .seconds(1))...(event.at + duration + .seconds(1))
                if !textAppeared(in: window, timeline) {
                    note("sound-without-text", event.at, "sound \(name) at \(event.at) with no visible change of text")
                }
            case .media(let track, _) where track.captions.isEmpty && !track.narration.isEmpty:
                note(
                    "sound-without-text", event.at,
                    "media \(track.name) at \(event.at) has narration and no caption track")
            default:
                break
            }
        }
    }

    /// True when text appeared on screen within `window`: shown text, a caption, or a new exposed label or value.
    static func textAppeared(in window: ClosedRange<Instant>, _ timeline: Timeline) -> Bool {
        let shown = timeline.events.contains { event in
            guard window.contains(event.at) else { return false }
            switch event.kind {
            case .visibleText, .caption: return true
            default: return false
            }
        }
        if shown { return true }
        var previous = timeline.screen(at: window.lowerBound).map(\.visibleTexts) ?? []
        for snapshot in timeline.screens.snapshots(in: window) {
            let texts = snapshot.screen.visibleTexts
            if !texts.subtracting(previous).isEmpty { return true }
            previous = texts
        }
        return false
    }

    private static func pollFindings(_ timeline: Timeline, _ note: (String, Instant, String) -> Void) {
        for record in timeline.utterances where timeline.isStalePoll(record) {
            guard let start = record.start else { continue }
            note(
                "stale-poll-backlog", start,
                "poll \"\(record.utterance.text)\" started at \(start) after its element had changed")
        }
        silentValueFindings(timeline, note)
    }

    /// The focused element changed label or value 3+ times while focused and nothing about it was spoken.
    private static func silentValueFindings(_ timeline: Timeline, _ note: (String, Instant, String) -> Void) {
        let focusMoves = timeline.events.compactMap { event -> (at: Instant, to: String?)? in
            if case .focus(_, let to, _, _) = event.kind { return (event.at, to) }
            return nil
        }
        var lookup = SnapshotLookup(timeline)
        // Each element's poll starts, in order: whether one fell in a focus window is a bisection.
        var pollStarts: [String: [Instant]] = [:]
        for record in timeline.utterances where record.utterance.kind == .poll {
            guard let id = record.utterance.elementID, let start = record.start else { continue }
            pollStarts[id, default: []].append(start)
        }
        for id in pollStarts.keys { pollStarts[id]?.sort() }
        for (index, move) in focusMoves.enumerated() {
            // A text field changes as the user types; typing echo covers it.
            guard let id = move.to, lookup.element(id, at: move.at)?.traits.isTextEntry == false else {
                continue
            }
            let end = index + 1 < focusMoves.count ? focusMoves[index + 1].at : timeline.end
            // Label changes only: the content itself (a stopwatch's `Text(timecode)`). A changing value without the
            // trait is what the announcement-spam card prescribes for a countdown: read on demand, never pushed.
            var last = lookup.element(id, at: move.at)
            var changes = 0
            // Snapshots in time order (as a run records them): only the window's are visited.
            for snapshot in timeline.screens.snapshots(in: move.at...max(move.at, end)) {
                guard snapshot.at > move.at && snapshot.at < end else { continue }
                let now = snapshot.screen.element(id)
                if now?.label != last?.label { changes += 1 }
                last = now
            }
            let starts = pollStarts[id] ?? []
            let first = starts.partitionPoint { $0 >= move.at }
            let spoke = first < starts.count && starts[first] < end
            if changes >= 3 && !spoke {
                note(
                    "silent-changing-value", move.at,
                    "\(id) changed \(changes) times while focused from \(move.at) to \(end) and nothing was read")
            }
        }
    }
}

/// Elements of the timeline's screen snapshots, looked up by id through one dictionary per snapshot (built when
/// first asked), so rules that ask about every focus move do not walk the whole tree each time.
struct SnapshotLookup {
    let timeline: Timeline
    private var snapshot: Int?
    private var elements: [String: AccessibilityElement] = [:]

    init(_ timeline: Timeline) { self.timeline = timeline }

    /// `timeline.screen(at: instant)?.element(id)`.
    mutating func element(_ id: String, at instant: Instant) -> AccessibilityElement? {
        let index = timeline.screens.lastIndex(atOrBefore: instant, before: .max)
        guard index >= 0 else { return nil }
        if snapshot != index {
            snapshot = index
            elements = [:]
            // The first element with an id in document order, as `Screen.element(_:)` finds it.
            func walk(_ list: [AccessibilityElement]) {
                for element in list {
                    if elements[element.id] == nil { elements[element.id] = element }
                    walk(element.children)
                }
            }
            walk(timeline.screens.snapshot(index).screen.elements)
        }
        return elements[id]
    }
}

extension RandomAccessCollection where Index == Int {
    /// The first index whose element satisfies `isAbove`, for a predicate false then true along the collection.
    func partitionPoint(_ isAbove: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let mid = (low + high) / 2
            if isAbove(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
