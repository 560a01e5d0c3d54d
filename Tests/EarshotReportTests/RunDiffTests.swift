import EarshotCore
import Testing

@testable import EarshotReport

@Suite("Before→after diff of utterances")
struct RunDiffTests {
    /// One utterance and what happened to it, for hand-made timelines.
    enum Fate {
        case spoken(Double, Double)
        case dropped(Double)
    }

    /// A timeline of `(kind, text, posted at, fate)` records, in that order.
    static func timeline(_ items: [(UtteranceKind, String, Double, Fate)]) -> Timeline {
        var timeline = Timeline()
        for (index, item) in items.enumerated() {
            let utterance = Utterance(
                id: index + 1, text: item.1, kind: item.0, cause: "test", requestedAt: .seconds(item.2))
            let outcome: Outcome
            switch item.3 {
            case .spoken(let start, let end): outcome = .spoken(start: .seconds(start), end: .seconds(end))
            case .dropped(let at): outcome = .dropped(at: .seconds(at), reason: .focusMoved, by: nil)
            }
            timeline.utterances.append(
                UtteranceRecord(utterance: utterance, voice: .standard, rule: "test", outcome: outcome))
        }
        timeline.end = .seconds(10)
        return timeline
    }

    static let before = timeline([
        (.focusRead, "Search, search field", 0, .spoken(0, 1.2)),
        (.announcement, "Results updated", 2, .spoken(2, 3)),
        (.announcement, "3 results", 4, .spoken(4, 4.8)),
        (.focusRead, "First result", 6, .spoken(6, 7)),
    ])

    @Test func twoRunsThatSoundAlikeHaveNoDifference() {
        let diff = RunDiff(before: Self.before, after: Self.before)
        #expect(!diff.hasDifference)
        #expect(diff.rows.map(\.change) == [.same, .same, .same, .same])
        #expect(diff.busiestWindow(width: 2) == nil)
    }

    @Test func lostAddedRemovedAndMovedUtterancesAreNamedAndAligned() throws {
        let after = Self.timeline([
            (.focusRead, "Search, search field", 0, .spoken(0, 1.2)),
            (.announcement, "3 results", 4, .dropped(4)),
            (.announcement, "Showing 3 results", 4.5, .spoken(4.5, 5.5)),
            (.focusRead, "First result", 6, .spoken(6.5, 7.5)),
        ])
        let diff = RunDiff(before: Self.before, after: after)
        #expect(diff.hasDifference)
        let changes = diff.rows.map { "\($0.change.rawValue) \($0.before?.text ?? $0.after?.text ?? "")" }
        #expect(
            changes == [
                "same Search, search field", "removed Results updated", "lost-now 3 results",
                "added Showing 3 results", "moved First result",
            ])
        let lost = try #require(diff.rows.first { $0.change == .lostNow })
        #expect(lost.after?.hearing == .lost && lost.after?.heard == "" && lost.before?.hearing == .full)
        #expect(diff.counts.map(\.change) == [.same, .moved, .lostNow, .added, .removed])
        // The changed rows start at 2, 4, 4.5 and 6 (6.5) seconds: the stretch from 4 holds three of them.
        let busiest = try #require(diff.busiestWindow(width: 2.5, lead: 0.25))
        #expect(busiest.rows == 3)
        #expect(busiest.window == 3.75...6.25)
    }

    @Test func theSameTextPostedFarApartIsNotTheSameUtterance() {
        let after = Self.timeline([
            (.focusRead, "Search, search field", 0, .spoken(0, 1.2)),
            (.announcement, "Results updated", 8, .spoken(8, 9)),
            (.announcement, "3 results", 4, .spoken(4, 4.8)),
            (.focusRead, "First result", 6, .spoken(6, 7)),
        ])
        let diff = RunDiff(before: Self.before, after: after, matchTolerance: 3)
        #expect(diff.rows.filter { $0.change == .same }.count == 3)
        #expect(diff.rows.filter { $0.change == .added || $0.change == .removed }.count == 2)
        #expect(!diff.rows.contains { $0.change == .moved })
    }

    @Test func realRunsOfTheSearchScriptsShowEveryCutAndLostBeforeUtteranceAsChanged() throws {
        let before = try ReviewFixtures.report("announcement-spam/before-search.earshot").run.timeline
        let after = try ReviewFixtures.report("announcement-spam/after-search.earshot").run.timeline
        #expect(!RunDiff(before: after, after: after).hasDifference)
        let diff = RunDiff(before: before, after: after)
        #expect(diff.rows.compactMap(\.before).count == before.utterances.count)
        #expect(diff.rows.compactMap(\.after).count == after.utterances.count)
        // "Results updated" is cut or lost on every keystroke before; the after never posts it while typing.
        let dropped = diff.rows.filter { $0.before?.text == "Results updated" && $0.before?.hearing != .full }
        #expect(dropped.count >= 6)
        #expect(dropped.allSatisfy { $0.change == .removed })
        #expect(diff.rows.contains { $0.change == .added && $0.after?.text == "2 results" })
        #expect(diff.rows.contains { $0.change == .heardNow })
    }
}
