import EarshotCore

/// The utterances of two runs (a before and its after) lined up like a diff: what the after lost, cut, added,
/// moved or heard again.
///
/// Utterances are matched by kind and text (the longest common subsequence, in the order they were posted),
/// and only when they were posted within `matchTolerance` seconds of each other. Each row then says how the
/// after differs: see `Change`. A pure value: the review page draws it, tests read it.
public struct RunDiff: Sendable, Equatable {
    /// How a row differs from before to after.
    public enum Change: String, Sendable, Equatable, CaseIterable {
        /// Heard the same way at the same time.
        case same
        /// Heard the same way, but it started more than `moveTolerance` earlier or later.
        case moved
        /// Heard less of it now: cut where it was heard in full, or cut at an earlier word.
        case cutNow = "cut-now"
        /// Nothing of it is heard now, though some of it was before.
        case lostNow = "lost-now"
        /// More of it is heard now than before (in full where it was cut or lost).
        case heardNow = "heard-now"
        /// Only the after posts it.
        case added
        /// Only the before posted it.
        case removed

        /// How the page names the change.
        public var name: String {
            switch self {
            case .same: return "same"
            case .moved: return "moved"
            case .cutNow: return "cut now"
            case .lostNow: return "lost now"
            case .heardNow: return "heard now"
            case .added: return "added"
            case .removed: return "removed"
            }
        }
    }

    /// How much of an utterance reached the listener, in order.
    public enum Hearing: Int, Sendable, Equatable, Comparable {
        /// Nothing of it: dropped, cut before its first word, or without words.
        case lost
        /// Some of it: cut after its first word.
        case cut
        /// All of it (or still sounding when the run ended).
        case full

        public static func < (lhs: Hearing, rhs: Hearing) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One run's side of a row.
    public struct Side: Sendable, Equatable {
        /// The utterance's kind.
        public var kind: UtteranceKind
        /// Its full text.
        public var text: String
        /// What of it was heard (`Results` of `Results updated` when cut; empty when lost).
        public var heard: String
        /// How much was heard.
        public var hearing: Hearing
        /// When it started sounding, or when it was dropped, in seconds.
        public var at: Double
        /// When it stopped sounding (its cut or end), or `at` when it never sounded, in seconds.
        public var end: Double
        /// What happened to it, in the checks' words (`heard in full`, `cut by …`, `nothing heard: dropped …`).
        public var fate: String

        /// The side of one utterance record.
        public init(_ record: UtteranceRecord) {
            kind = record.utterance.kind
            text = record.utterance.text
            fate = record.fate.description
            switch record.outcome {
            case .pending:
                at = record.utterance.requestedAt.seconds
                end = at
            case .speaking(let start):
                at = start.seconds
                end = at
            case .spoken(let start, let stop):
                at = start.seconds
                end = stop.seconds
            case .interrupted(let start, let cut, _):
                at = start.seconds
                end = cut.seconds
            case .dropped(let when, _, _):
                at = when.seconds
                end = at
            }
            switch record.fate {
            case .pending, .heardInFull:
                hearing = .full
                heard = record.utterance.text
            case .cut(let words, _):
                hearing = .cut
                heard = words
            case .cutBeforeFirstWord, .dropped, .withoutWords:
                hearing = .lost
                heard = ""
            }
        }
    }

    /// One line of the diff: an utterance of either run or both, and how it changed.
    public struct Row: Sendable, Equatable {
        /// The before's utterance, unless it was added.
        public var before: Side?
        /// The after's utterance, unless it was removed.
        public var after: Side?
        /// How it changed.
        public var change: Change

        /// The earliest time on the row, in seconds.
        public var at: Double { min(before?.at ?? .infinity, after?.at ?? .infinity) }
        /// Every time on the row (each side's start), in seconds.
        public var times: [Double] { [before?.at, after?.at].compactMap { $0 } }
    }

    /// The rows, in the order the runs posted their utterances.
    public var rows: [Row]

    /// Lines up `before` and `after`: same kind and text, posted within `matchTolerance` seconds of each other,
    /// count as one utterance; a start more than `moveTolerance` seconds away makes it `moved`.
    public init(before: Timeline, after: Timeline, matchTolerance: Double = 3, moveTolerance: Double = 0.1) {
        let old = before.utterances
        let new = after.utterances
        func matches(_ i: Int, _ j: Int) -> Bool {
            old[i].utterance.kind == new[j].utterance.kind && old[i].utterance.text == new[j].utterance.text
                && abs(old[i].utterance.requestedAt.seconds - new[j].utterance.requestedAt.seconds) <= matchTolerance
        }
        // Longest common subsequence, filled from the ends so the walk below reads front to back.
        var length = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                length[i][j] = matches(i, j) ? length[i + 1][j + 1] + 1 : max(length[i + 1][j], length[i][j + 1])
            }
        }
        var rows: [Row] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, matches(i, j), length[i][j] == length[i + 1][j + 1] + 1 {
                let pair = (Side(old[i]), Side(new[j]))
                rows.append(Row(before: pair.0, after: pair.1, change: Self.change(pair.0, pair.1, moveTolerance)))
                i += 1
                j += 1
            } else if j < new.count, i == old.count || length[i][j + 1] >= length[i + 1][j] {
                rows.append(Row(before: nil, after: Side(new[j]), change: .added))
                j += 1
            } else {
                rows.append(Row(before: Side(old[i]), after: nil, change: .removed))
                i += 1
            }
        }
        self.rows = rows
    }

    /// How a matched pair changed.
    static func change(_ before: Side, _ after: Side, _ moveTolerance: Double) -> Change {
        if after.hearing < before.hearing { return after.hearing == .lost ? .lostNow : .cutNow }
        if after.hearing > before.hearing { return .heardNow }
        if after.hearing == .cut, after.heard != before.heard {
            return after.heard.count < before.heard.count ? .cutNow : .heardNow
        }
        return abs(after.at - before.at) > moveTolerance ? .moved : .same
    }

    /// The rows that differ.
    public var differences: [Row] { rows.filter { $0.change != .same } }

    /// True when some row differs.
    public var hasDifference: Bool { rows.contains { $0.change != .same } }

    /// How many rows have each change, in `Change.allCases` order, leaving out changes with none.
    public var counts: [(change: Change, count: Int)] {
        Change.allCases.compactMap { change in
            let count = rows.filter { $0.change == change }.count
            return count == 0 ? nil : (change, count)
        }
    }

    /// The stretch of `width` seconds holding the most differing rows (a row counts when either side starts in
    /// it), starting `lead` seconds before the first of them; the earliest such stretch on a tie. Nil when
    /// nothing differs.
    public func busiestWindow(width: Double, lead: Double = 0.25) -> (window: ClosedRange<Double>, rows: Int)? {
        let differing = differences
        let starts = differing.flatMap(\.times).sorted()
        var best: (start: Double, rows: Int)?
        for start in starts {
            let count = differing.filter { row in row.times.contains { $0 >= start && $0 <= start + width - lead } }
                .count
            if count > (best?.rows ?? 0) { best = (start, count) }
        }
        guard let best else { return nil }
        let lower = best.start - lead
        return (lower...(lower + width), best.rows)
    }
}
