import EarshotCore

/// A live run's real-time measurements, judged around the host's stalls.
///
/// Each measured thing (a start, a cut, the opening read or an announcement found in the recording) covers a stretch
/// of the run. One that missed a bound while a stall of the host overlapped it is excused: not judged, and counted.
/// Every other one is judged against its bounds. A run counts only when at least two thirds of each kind are judged,
/// so a host that stalls all the time cannot pass a run nobody could measure.
struct LiveTiming {
    enum Kind: String, CaseIterable, Sendable {
        /// Where the recording's first speech is: the origin every other position is measured from.
        case opening
        case start, cut, announcement
    }

    /// One measured thing: what it is, the stretch it covers, and each bound it missed.
    struct Event: Sendable {
        var kind: Kind
        var label: String
        var from: Instant
        var to: Instant
        var misses: [String] = []
    }

    /// The judged share of each kind a run needs.
    static let judgedShare = 2.0 / 3.0

    let events: [Event]
    let host: HostStalls

    /// Events that held their bounds, and those that missed one with no stall overlapping them: judged.
    var judged: [Event] { events.filter { $0.misses.isEmpty || host.longest(overlapping: $0.from, $0.to) == nil } }

    /// Events that missed a bound while a stall overlapped them, each with the longest such stall.
    var excused: [(event: Event, stall: HostStallWatch.Stall)] {
        events.compactMap { event in
            event.misses.isEmpty ? nil : host.longest(overlapping: event.from, event.to).map { (event, $0) }
        }
    }

    /// Each bound a judged event missed: `start of 4: 42 ms (bound 30 ms)`.
    var misses: [String] { judged.flatMap { event in event.misses.map { "\(event.kind) of \(event.label): \($0)" } } }

    /// Kinds with fewer than ``judgedShare`` of their events judged, described.
    var tooFewJudged: [String] {
        Kind.allCases.compactMap { kind in
            let all = events.filter { $0.kind == kind }.count
            let judgedCount = judged.filter { $0.kind == kind }.count
            guard all > 0, Double(judgedCount) < Double(all) * Self.judgedShare else { return nil }
            return "only \(judgedCount) of \(all) \(kind)s judged: the host stalled over the rest"
        }
    }

    /// Whether the run's timing can be judged and held every bound it was judged on.
    var isClean: Bool { misses.isEmpty && tooFewJudged.isEmpty }

    /// `host: 2 stalls, longest 38.2 ms at 3.214s; not judged, a stall over them: cut of 6 (device − engine …)`.
    var summary: String {
        let excusedText = excused.map {
            "\($0.event.kind) of \($0.event.label) (\($0.event.misses.joined(separator: "; ")); stall of \($0.stall.length))"
        }
        return "host: \(host.summary)"
            + (excusedText.isEmpty ? "" : "; not judged, a stall over them: \(excusedText.joined(separator: ", "))")
    }
}
