import EarshotCore
import Foundation

/// Evaluates a script's checks against the timeline of its run.
///
/// Every assertion is a question about the timeline (what was heard, when, what cut what) or the accessibility
/// tree over time (what was exposed, what followed what). Windows such as "while typing" or "while history
/// loads" are computed from the run itself.
public struct CheckEvaluator {
    /// The run being judged.
    public let run: ScenarioRun
    var timeline: Timeline { run.timeline }

    /// Creates an evaluator for a run.
    public init(run: ScenarioRun) { self.run = run }

    /// Every check's verdict, in source order.
    public func evaluate() -> [CheckResult] {
        run.document.checks.filter { $0.applies(to: run.profile.reader) }.map { check in
            CheckResult(
                name: check.nameUnderReaders, location: check.location, assertions: check.assertions.map(evaluate))
        }
    }

    func evaluate(_ assertion: ScenarioAssertion) -> AssertionResult {
        let (passed, evidence): (Bool, [String])
        switch assertion.kind {
        case .count(let count): (passed, evidence) = evaluateCount(count)
        case .reads(let reference, let match, let whenFocused):
            (passed, evidence) = reads(reference, match, whenFocused)
        case .heardEvery(let match, let interval, let window): (passed, evidence) = heardEvery(match, interval, window)
        case .focusStays(let element, let load): (passed, evidence) = focusStays(element, load)
        case .reaches(let navigation, let element, let window):
            (passed, evidence) = reaches(navigation, element, window)
        case .staysVisible(let element, let window): (passed, evidence) = staysVisible(element, window)
        case .textVisible(let match, let window): (passed, evidence) = textVisible(match, window)
        case .screensSoundDifferent(let names): (passed, evidence) = screensSoundDifferent(names)
        case .focusAt(let element, let at): (passed, evidence) = focusAt(element, at)
        case .startsAfter(let later, let anchor, let gap): (passed, evidence) = startsAfter(later, anchor, gap)
        case .waits(let selector, let bound): (passed, evidence) = waits(selector, bound)
        }
        return AssertionResult(text: assertion.text, location: assertion.location, passed: passed, evidence: evidence)
    }

    // MARK: Counting

    /// One countable thing: when, what it said, the element it concerns, and for speech its record.
    struct Item {
        var at: Instant
        var text: String
        var elementID: String?
        var detail: String
        var record: UtteranceRecord? = nil
        /// An `announcementDidFinish` callback's `wasSuccessful`.
        var wasSuccessful: Bool? = nil
    }

    /// The utterance kinds a speech subject counts.
    func isKind(_ record: UtteranceRecord, of subject: ScenarioSubject) -> Bool {
        let utterance = record.utterance
        switch subject {
        case .announcement: return utterance.isAppSpeech
        case .speech, .cut: return true
        case .focusRead:
            return utterance.kind == .focusRead || utterance.kind == .screenChange
                || (utterance.kind == .layoutChange && utterance.elementID != nil)
        case .hint: return utterance.kind == .hint
        case .pollRead: return utterance.kind == .poll
        case .stalePollRead: return timeline.isStalePoll(record)
        case .echo: return utterance.kind == .typingEcho
        case .scanStop, .swipeStop, .caption, .sound, .earcon, .didFinish: return false
        }
    }

    /// The instant a speech item is placed at for windows: its request for `posted`, `dropped` and `lost`,
    /// its start for `heard`, its cut for `cut`; what never started sits at its request.
    func instant(_ record: UtteranceRecord, for fate: ScenarioFate) -> Instant {
        switch fate {
        case .posted, .dropped, .lost: return record.utterance.requestedAt
        case .heard, .heardInFull: return record.start ?? record.utterance.requestedAt
        case .cut: return record.stop ?? record.utterance.requestedAt
        }
    }

    func items(_ subject: ScenarioSubject, fate: ScenarioFate = .heard) -> [Item] {
        if subject.isSpeech {
            return timeline.utterances.filter { isKind($0, of: subject) }.map { record in
                Item(
                    at: instant(record, for: fate), text: record.utterance.text,
                    elementID: record.utterance.elementID, detail: describe(record), record: record)
            }.sorted { ($0.at, $0.record?.utterance.id ?? 0) < ($1.at, $1.record?.utterance.id ?? 0) }
        }
        switch subject {
        case .scanStop, .swipeStop:
            return timeline.events.compactMap { event in
                let id: String?
                switch event.kind {
                case .scanHighlight(let element) where subject == .scanStop: id = element
                case .focus(_, let to, _, let cause) where subject == .swipeStop && cause.isSwipe: id = to
                default: id = nil
                }
                guard let id else { return nil }
                let phrase = timeline.screen(at: event.at)?.element(id)?.spokenDescription() ?? id
                return Item(at: event.at, text: phrase, elementID: id, detail: "\(event.at) \(id) \"\(phrase)\"")
            }
        case .caption:
            return timeline.events.compactMap { event in
                guard case .caption(let text, let until) = event.kind else { return nil }
                return Item(
                    at: event.at, text: text, elementID: nil, detail: "caption \"\(text)\" \(event.at)–\(until)")
            }
        case .sound:
            return timeline.events.compactMap { event in
                guard case .sound(let name, _, let heard) = event.kind, heard else { return nil }
                return Item(at: event.at, text: name, elementID: nil, detail: "sound \(name) at \(event.at)")
            }
        case .earcon:
            return timeline.events.compactMap { event in
                guard case .earcon(let name, _) = event.kind else { return nil }
                return Item(at: event.at, text: name, elementID: nil, detail: "earcon \(name) at \(event.at)")
            }
        case .didFinish:
            return timeline.events.compactMap { event in
                guard case .announcementDidFinish(_, let text, let wasSuccessful) = event.kind else { return nil }
                return Item(
                    at: event.at, text: text, elementID: nil,
                    detail: "announcementDidFinish \"\(text)\" wasSuccessful \(wasSuccessful) at \(event.at)",
                    wasSuccessful: wasSuccessful)
            }
        case .announcement, .speech, .focusRead, .hint, .pollRead, .stalePollRead, .echo, .cut:
            return []
        }
    }

    /// True when an utterance is the speech a selector names.
    func selects(_ selector: ScenarioSpeechSelector, _ record: UtteranceRecord) -> Bool {
        isKind(record, of: selector.subject)
            && (selector.element == nil || record.utterance.elementID == selector.element)
            && (selector.matching.map { matches(record.utterance.text, .matching($0)) } ?? true)
    }

    func evaluateCount(_ count: ScenarioCount) -> (Bool, [String]) {
        let windows = count.window.map(intervals) ?? [Instant.zero...timeline.end]
        var selected = items(count.subject, fate: count.fate).filter { item in
            windows.contains { $0.contains(item.at) }
        }
        if let target = count.target {
            selected = selected.filter { item in
                guard let id = item.elementID, let screen = timeline.screen(at: item.at) else { return false }
                switch target {
                case .placeholders: return screen.element(id)?.isPlaceholder ?? false
                case .hiddenElements: return !screen.isExposed(id)
                case .element(let wanted): return id == wanted
                }
            }
        }
        if let pattern = count.matching { selected = selected.filter { matches($0.text, .matching(pattern)) } }
        if let pattern = count.unlessMatching { selected = selected.filter { !matches($0.text, .matching(pattern)) } }
        if let cutter = count.cutBy {
            selected = selected.filter { item in
                guard let id = item.record?.interruption?.utterance, let by = timeline.record(id) else { return false }
                return selects(cutter, by)
            }
        }
        if let reason = count.dropReason { selected = selected.filter { $0.record?.dropReason == reason } }
        if let wanted = count.wasSuccessful {
            selected = selected.filter { $0.wasSuccessful == wanted }
        }
        // Speech is counted by its fate; what the fate leaves out is listed, so "found 0" is never a puzzle.
        let counted = selected.filter { item in item.record.map(count.fate.includes) ?? true }
        let left = selected.filter { item in item.record.map { !count.fate.includes($0) } ?? false }
        let passed = count.quantifier.accepts(counted.count)
        let what = count.subject.isSpeech ? " \(count.fate.rawValue)" : ""
        var evidence = ["found \(counted.count)\(what) in \(describe(windows))"]
        evidence += counted.prefix(12).map(\.detail)
        if counted.count > 12 {
            evidence.append("… and \(counted.count - 12) more" + fateSummary(counted.dropFirst(12)))
        }
        if [.heard, .heardInFull].contains(count.fate) {
            evidence += left.prefix(6).map { "not counted (not \(count.fate.rawValue)): \($0.detail)" }
            if left.count > 6 { evidence.append("… and \(left.count - 6) more not counted") }
        }
        return (passed, evidence)
    }

    /// `: 30 cut, 4 heard in full` — the fates of speech items the evidence does not list one by one.
    func fateSummary(_ items: ArraySlice<Item>) -> String {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for item in items {
            guard let record = item.record else { continue }
            let fate: String
            switch record.fate {
            case .pending: fate = "not resolved"
            case .heardInFull: fate = "heard in full"
            case .cut: fate = "cut"
            case .cutBeforeFirstWord: fate = "cut before a word (nothing heard)"
            case .dropped: fate = "dropped (nothing heard)"
            case .withoutWords: fate = "without words (nothing heard)"
            }
            if counts[fate] == nil { order.append(fate) }
            counts[fate, default: 0] += 1
        }
        guard !order.isEmpty else { return "" }
        return ": " + order.map { "\(counts[$0] ?? 0) \($0)" }.joined(separator: ", ")
    }

    // MARK: Other assertions

    func reads(_ reference: ScenarioElementReference, _ match: ScenarioTextMatch, _ whenFocused: Bool) -> (
        Bool, [String]
    ) {
        let id: String
        switch reference {
        case .id(let element):
            id = element
        case .after(let anchor):
            let screen = timeline.screen(at: timeline.end) ?? Screen(name: "", elements: [])
            let order = screen.navigationOrder
            guard let index = order.firstIndex(where: { $0.id == anchor }) else {
                return (false, ["\(anchor) is not in the reading order at the end of the run"])
            }
            guard index + 1 < order.count else { return (false, ["nothing follows \(anchor) in the reading order"]) }
            let next = order[index + 1]
            let phrase = next.spokenDescription()
            return (matches(phrase, match), ["after \(anchor) comes \(next.id): \"\(phrase)\""])
        }
        guard whenFocused else {
            let phrase = timeline.screen(at: timeline.end)?.element(id)?.spokenDescription() ?? ""
            return (matches(phrase, match), ["\(id) reads \"\(phrase)\" at the end of the run"])
        }
        let reads = timeline.heardUtterances.filter { record in
            record.utterance.elementID == id
                && [.focusRead, .screenChange, .layoutChange].contains(record.utterance.kind)
        }
        // The last time focus landed there, and it must have been heard to the end: a read cut off by an
        // announcement did not tell the user anything.
        guard let last = reads.last else { return (false, ["\(id) was never read on focus"]) }
        let passed = last.wasSpoken && matches(last.utterance.text, match)
        var evidence = reads.map(describe)
        if !last.wasSpoken { evidence.append("the last read of \(id) was not heard to the end") }
        return (passed, evidence)
    }

    func heardEvery(_ match: ScenarioTextMatch, _ interval: TimeSpan, _ window: ScenarioWindow?) -> (Bool, [String]) {
        let windows = window.map(intervals) ?? [Instant.zero...timeline.end]
        let tolerance = TimeSpan.milliseconds(50)
        var evidence: [String] = []
        var passed = true
        for range in windows {
            // From the window's very start, no silence between reads of a matching text may be longer than the
            // interval; a read cut short still sounded until its cut.
            let heard = timeline.heardUtterances.filter { record in
                guard let start = record.start, record.heardAnything else { return false }
                return range.contains(start) && matches(record.utterance.text, match)
            }
            var quietFrom = range.lowerBound
            for record in heard {
                guard let start = record.start else { continue }
                let gap = start - quietFrom
                if gap > interval + tolerance {
                    passed = false
                    evidence.append("silent \(gap) from \(quietFrom) to \(start)")
                }
                quietFrom = max(quietFrom, record.stop ?? start)
            }
            let tail = range.upperBound - quietFrom
            if heard.isEmpty || tail > interval + tolerance {
                passed = false
                evidence.append(
                    heard.isEmpty
                        ? "nothing matching heard \(describe([range]))"
                        : "silent \(tail) from \(quietFrom) to \(range.upperBound)")
            }
            evidence.append(
                "heard \(heard.count) matching \(describe([range])): "
                    + heard.prefix(8).map { "\"\($0.heardText)\" at \($0.start ?? .zero)" }.joined(separator: ", "))
        }
        return (passed, evidence)
    }

    func focusStays(_ element: String?, _ load: String) -> (Bool, [String]) {
        guard let finished = loads(load, .finished).first else {
            return (false, ["load \(load) never finished"])
        }
        let before = focusEvents.last { $0.at < finished }
        let after = focusEvents.filter { $0.at >= finished && $0.at <= finished + .seconds(1) && !$0.byUser }
        var evidence = [
            "load \(load) finished at \(finished); focus was on \(before?.to ?? "nothing") (position \(before?.index.map(String.init) ?? "-"))"
        ]
        var passed = element == nil || before?.to == element
        if let element, before?.to != element { evidence.append("focus was not on \(element) when the load finished") }
        for move in after {
            evidence.append(
                "focus → \(move.to ?? "nothing") (position \(move.index.map(String.init) ?? "-")) at \(move.at) by \(move.cause)"
            )
            if let element {
                if move.to != element || before?.to != element { passed = false }
            } else if move.index != before?.index {
                passed = false
            }
        }
        return (passed, evidence)
    }

    func reaches(_ navigation: ScenarioNavigation, _ element: String, _ window: ScenarioWindow?) -> (Bool, [String]) {
        let windows = window.map(intervals) ?? [Instant.zero...timeline.end]
        let stops = items(navigation == .scan ? .scanStop : .swipeStop).filter { item in
            windows.contains { $0.contains(item.at) }
        }
        let reached = stops.filter { $0.elementID == element }
        let evidence = [
            "\(navigation.rawValue) stops \(describe(windows)): "
                + stops.prefix(12).map { $0.elementID ?? "?" }.joined(separator: " → ")
        ]
        return (!reached.isEmpty, evidence + reached.prefix(3).map { "reached \(element) at \($0.at)" })
    }

    func staysVisible(_ element: String, _ window: ScenarioWindow?) -> (Bool, [String]) {
        let range = (window.map(intervals) ?? [Instant.zero...timeline.end]).first ?? Instant.zero...timeline.end
        let snapshots = timeline.screens.snapshots(in: range).lazy.map {
            (at: $0.at, exposed: $0.screen.isExposed(element))
        }
        guard let shown = snapshots.first(where: { $0.exposed }) else {
            return (false, ["\(element) never appeared \(describe([range]))"])
        }
        if let gone = snapshots.first(where: { $0.at > shown.at && !$0.exposed }) {
            return (
                false, ["\(element) appeared at \(shown.at) and disappeared at \(gone.at), before \(range.upperBound)"]
            )
        }
        return (true, ["\(element) visible from \(shown.at) through \(range.upperBound)"])
    }

    func textVisible(_ match: ScenarioTextMatch, _ window: ScenarioWindow?) -> (Bool, [String]) {
        let windows = window.map(intervals) ?? [Instant.zero...timeline.end]
        var texts: [(Instant, String)] = []
        for range in windows {
            if let first = timeline.screen(at: range.lowerBound) {
                texts += first.visibleTexts.sorted().map { (range.lowerBound, $0) }
            }
            for snapshot in timeline.screens.snapshots(in: range) {
                texts += snapshot.screen.visibleTexts.sorted().map { (snapshot.at, $0) }
            }
            for event in timeline.events where range.contains(event.at) {
                switch event.kind {
                case .visibleText(let text, _), .caption(let text, _): texts.append((event.at, text))
                default: break
                }
            }
        }
        if let hit = texts.first(where: { matches($0.1, match) }) {
            return (true, ["\"\(hit.1)\" visible at \(hit.0)"])
        }
        let seen = Set(texts.map(\.1)).sorted().prefix(10).map { "\"\($0)\"" }.joined(separator: ", ")
        return (false, ["no visible text matches \(describe(match)) \(describe(windows)); visible: \(seen)"])
    }

    func screensSoundDifferent(_ names: [String]) -> (Bool, [String]) {
        var phrases: [String: String] = [:]
        for name in names {
            let order = run.screens[name]?.navigationOrder ?? []
            phrases[name] = order.map { $0.spokenDescription() }.joined(separator: " / ")
        }
        let distinct = Set(phrases.values).count == names.count
        return (distinct, names.map { "\($0): \"\(phrases[$0] ?? "")\"" })
    }
}
