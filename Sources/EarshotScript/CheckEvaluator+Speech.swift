import EarshotCore

/// Assertions about particular utterances and focus at an instant: `B starts after A ends`, `A waits at
/// most 1s`, `focus is on ID at 2s`.
extension CheckEvaluator {
    /// `focus is on ID|nothing at T`: the last focus move at or before T.
    func focusAt(_ element: String?, _ at: Instant) -> (Bool, [String]) {
        let move = focusEvents.last { $0.at <= at }
        let actual = move?.to
        let since = move.map { " since \($0.at) (\($0.cause))" } ?? " (focus never moved)"
        return (actual == element, ["at \(at) focus is on \(actual ?? "nothing")\(since)"])
    }

    /// `B starts [within|at least SPAN] after A ends`.
    func startsAfter(_ later: ScenarioSpeechSelector, _ anchor: ScenarioSpeechSelector, _ gap: ScenarioBound?)
        -> (Bool, [String])
    {
        let heard = timeline.heardUtterances.filter(\.heardAnything)
        guard let first = heard.first(where: { selects(anchor, $0) }), let start = first.start,
            let end = first.stop
        else {
            let lost = timeline.utterances.filter { selects(anchor, $0) }.prefix(3).map(describe)
            return (false, ["nothing matching \(describe(anchor)) was heard"] + lost)
        }
        var evidence = ["\(describe(anchor)): \(describe(first))"]
        let followers = heard.filter { selects(later, $0) && $0.utterance.id != first.utterance.id }
            .filter { ($0.start ?? .zero) >= start }
        guard let next = followers.first, let nextStart = next.start else {
            return (false, evidence + ["nothing matching \(describe(later)) was heard after it started"])
        }
        var passed = true
        for record in followers.prefix(8) {
            let recordStart = record.start ?? .zero
            // Starting the instant A stops counts only when A finished on its own: if it was cut then, B cut it.
            let ok = recordStart > end || (recordStart == end && first.wasSpoken)
            if !ok { passed = false }
            let why =
                recordStart == end ? " — it cut \(describe(anchor))" : " — starts \(end - recordStart) before it ends"
            evidence.append("\(describe(later)): \(describe(record))" + (ok ? "" : why))
        }
        if let gap, nextStart >= end {
            let span = nextStart - end
            if !gap.accepts(span) { passed = false }
            evidence.append("gap \(span) from \(end) to \(nextStart); wanted \(gap.description)")
        }
        return (passed, evidence)
    }

    /// `A waits at most|at least SPAN`: every posted A started, within the bound of its request.
    func waits(_ selector: ScenarioSpeechSelector, _ bound: ScenarioBound) -> (Bool, [String]) {
        let posted = timeline.utterances.filter { selects(selector, $0) }
        guard !posted.isEmpty else { return (false, ["nothing matching \(describe(selector)) was posted"]) }
        var passed = true
        var evidence: [String] = []
        for record in posted.prefix(12) {
            guard let start = record.start else {
                passed = false
                evidence.append("never started: \(describe(record))")
                continue
            }
            let waited = start - record.utterance.requestedAt
            if !bound.accepts(waited) { passed = false }
            evidence.append("waited \(waited) (requested \(record.utterance.requestedAt)): \(describe(record))")
        }
        if posted.count > 12 { evidence.append("… and \(posted.count - 12) more") }
        return (passed, evidence)
    }

    /// `focus read on cart matching /Cart/`.
    func describe(_ selector: ScenarioSpeechSelector) -> String {
        var words = [selector.subject.rawValue]
        if let element = selector.element { words.append("on \(element)") }
        if let pattern = selector.matching { words.append("/\(pattern)/") }
        return words.joined(separator: " ")
    }
}
