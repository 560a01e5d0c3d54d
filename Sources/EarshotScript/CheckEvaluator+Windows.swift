import EarshotCore
import Foundation

extension CheckEvaluator {
    /// A focus move on the timeline.
    struct FocusMove {
        var at: Instant
        var to: String?
        var index: Int?
        var cause: FocusCause
        var byUser: Bool { cause.isUser }
    }

    var focusEvents: [FocusMove] {
        timeline.events.compactMap { event in
            guard case .focus(_, let to, let index, let cause) = event.kind else { return nil }
            return FocusMove(at: event.at, to: to, index: index, cause: cause)
        }
    }

    /// Instants at which the load reached the phase.
    func loads(_ name: String, _ phase: LoadPhase) -> [Instant] {
        timeline.events.compactMap { event in
            if case .load(name, phase) = event.kind { return event.at }
            return nil
        }
    }

    /// Typing bursts: keystrokes less than a second apart, extended by the app's reaction delay.
    var typingBursts: [ClosedRange<Instant>] {
        var bursts: [ClosedRange<Instant>] = []
        for key in timeline.keystrokes {
            if let last = bursts.last, key - last.upperBound <= .seconds(1) {
                bursts[bursts.count - 1] = last.lowerBound...key
            } else {
                bursts.append(key...key)
            }
        }
        let delay = run.profile.voiceOver.appReactionDelay
        return bursts.map { $0.lowerBound...($0.upperBound + delay) }
    }

    /// The instants a window covers in this run.
    func intervals(_ window: ScenarioWindow) -> [ClosedRange<Instant>] {
        let end = timeline.end
        switch window {
        case .whileTyping:
            return typingBursts
        case .afterTypingStops:
            return typingBursts.last.map { [$0.upperBound...max(end, $0.upperBound)] } ?? []
        case .withinAfterTypingStops(let span):
            return typingBursts.last.map { [$0.upperBound...($0.upperBound + span)] } ?? []
        case .between(let start, let stop):
            // Half-open: "between 3s and 50s" does not include what starts at 50s.
            return [start...max(start, stop - TimeSpan(nanoseconds: 1))]
        case .after(let start):
            return [start...max(start, end)]
        case .before(let stop):
            return [Instant.zero...max(.zero, stop - TimeSpan(nanoseconds: 1))]
        case .whileLoading(let name):
            let starts = loads(name, .started)
            let ends = loads(name, .finished)
            // Half-open: what happens at the instant the load finishes happens after loading.
            let stops =
                ends.map { $0 - TimeSpan(nanoseconds: 1) }
                + Array(repeating: end, count: max(0, starts.count - ends.count))
            return zip(starts, stops).map { $0...max($0, $1) }
        case .whileMediaPlays(let name):
            return timeline.events.compactMap { event in
                guard case .media(let track, _) = event.kind, track.name == name else { return nil }
                return event.at...(event.at + track.duration)
            }
        case .whileFocused(let id):
            return focusSpans(of: id)
        case .afterFocusLeaves(let id):
            guard let first = focusSpans(of: id).first, first.upperBound < end else { return [] }
            return [first.upperBound...end]
        case .untilFocused(let id):
            let first = focusEvents.first { $0.to == id }?.at ?? end
            return [Instant.zero...first]
        case .afterAnnouncement(let pattern):
            let first = timeline.utterances.first { record in
                record.utterance.isAppSpeech && record.heardAnything
                    && matches(record.utterance.text, .matching(pattern))
            }
            // From when the first one heard finished (or was cut): what comes after it, once it has been heard.
            return first.map { record in
                let from = record.stop ?? record.utterance.requestedAt
                return [from...max(from, end)]
            } ?? []
        }
    }

    /// The spans during which focus was on `id`.
    func focusSpans(of id: String) -> [ClosedRange<Instant>] {
        var spans: [ClosedRange<Instant>] = []
        var since: Instant?
        for move in focusEvents {
            if let start = since, move.to != id {
                spans.append(start...move.at)
                since = nil
            } else if since == nil, move.to == id {
                since = move.at
            }
        }
        if let since { spans.append(since...max(since, timeline.end)) }
        return spans
    }

    func matches(_ text: String, _ match: ScenarioTextMatch) -> Bool {
        switch match {
        case .exactly(let expected): return text == expected
        case .matching(let pattern):
            return TextPatterns.matches(pattern, in: text)
        }
    }

    func describe(_ match: ScenarioTextMatch) -> String {
        switch match {
        case .exactly(let text): return "\"\(text)\""
        case .matching(let pattern): return "/\(pattern)/"
        }
    }

    func describe(_ windows: [ClosedRange<Instant>]) -> String {
        guard !windows.isEmpty else { return "(the window never opened)" }
        return windows.prefix(3).map { "\($0.lowerBound)–\($0.upperBound)" }.joined(separator: ", ")
            + (windows.count > 3 ? " …" : "")
    }

    /// One utterance as evidence: when, what, and its fate (`nothing heard: …` for what was lost).
    func describe(_ record: UtteranceRecord) -> String {
        let head = "\(record.utterance.kind.rawValue) \"\(record.utterance.text)\""
        switch record.outcome {
        case .spoken(let start, let end), .interrupted(let start, let end, _):
            return "\(start)–\(end) \(head): \(record.fate.description)"
        case .dropped(let at, _, _):
            return "\(record.utterance.requestedAt)–\(at) \(head): \(record.fate.description)"
        case .pending, .speaking: return "\(record.utterance.requestedAt) \(head): \(record.fate.description)"
        }
    }
}
