import EarshotCore
import Foundation
import Testing

@testable import EarshotReport

@Suite("Review page: the before→after difference")
struct ReviewPageDiffTests {
    /// The page of `before` beside `after`, without audio.
    static func page(_ before: RunReport, _ after: RunReport) throws -> PageNode {
        try PageParser.parse(
            ReviewPage.html(runs: [
                ReviewPage.Run(label: "Before", report: before), ReviewPage.Run(label: "After", report: after),
            ]))
    }

    static func search() throws -> (before: RunReport, after: RunReport) {
        (
            try ReviewFixtures.report("announcement-spam/before-search.earshot"),
            try ReviewFixtures.report("announcement-spam/after-search.earshot")
        )
    }

    @Test func theDiffComesFirstAndNamesEveryCutAndLostUtteranceOfTheSearchBefore() throws {
        let (before, after) = try Self.search()
        let page = try Self.page(before, after)
        let sections = page.all("section").compactMap { $0.attributes["id"] }
        #expect(sections.first == "difference", "the difference is the first section, before the player: \(sections)")
        let rows = page.all("tr", class: "diff-row")
        let diff = RunDiff(before: before.run.timeline, after: after.run.timeline)
        #expect(rows.count == diff.rows.count, "the search rows are short runs: none is collapsed")
        let cut = before.run.timeline.utterances.filter { $0.wasInterrupted && $0.heardAnything }
        let lost = before.run.timeline.utterances.filter(\.wasLost)
        #expect(!cut.isEmpty && !lost.isEmpty)
        let cutCells = page.all("td", class: "hearing-cut").filter {
            $0.attributes["class"]?.hasPrefix("before") == true
        }
        let lostCells = page.all("td", class: "hearing-lost").filter {
            $0.attributes["class"]?.hasPrefix("before") == true
        }
        #expect(cutCells.count == cut.count)
        #expect(lostCells.count == lost.count)
        for record in cut {
            #expect(
                cutCells.contains {
                    $0.allText.contains(record.heardText + "—") && $0.allText.contains(record.fate.description)
                },
                "no row shows \(record.utterance.shortName) cut after \"\(record.heardText)\"")
        }
        // Every "Results updated" the before cut is a removed row naming its cut.
        let removed = rows.filter { $0.attributes["data-change"] == "removed" }
        #expect(removed.filter { $0.allText.contains("Results—") }.count == 6)
        #expect(rows.contains { $0.attributes["data-change"] == "added" && $0.allText.contains("2 results") })
        let summary = page.all("p", class: "diff-summary").first?.allText ?? ""
        #expect(summary.contains("7 removed") && summary.contains("1 added"), "\(summary)")
    }

    @Test func runsThatSoundAlikeSayNothingChangedAndKeepTheCrowdedCloseUp() throws {
        let (before, _) = try Self.search()
        let page = try Self.page(before, before)
        let rows = page.all("tr", class: "diff-row")
        #expect(!rows.isEmpty && rows.allSatisfy { $0.attributes["data-change"] == "same" })
        #expect(page.all("p", class: "diff-summary").first?.allText.contains("the same way") == true)
        let notes = page.all("p", class: "note").map(\.allText)
        #expect(notes.contains { $0.hasPrefix("The busiest stretch") })
        #expect(!notes.contains { $0.hasPrefix("Where the runs differ most") })
    }

    @Test func theCloseUpIsWhereTheRunsDifferMost() throws {
        let before = try ReviewFixtures.report("announcement-spam/before-order-status.earshot")
        let after = try ReviewFixtures.report("announcement-spam/after-order-status.earshot")
        let page = try Self.page(before, after)
        let diff = RunDiff(before: before.run.timeline, after: after.run.timeline)
        let end = max(ReviewPage.timelineEnd(before.run.timeline), ReviewPage.timelineEnd(after.run.timeline))
        let expected = try #require(ReviewPage.differenceWindow(diff, overview: 0...end))
        let heading = page.all("h3").map(\.allText).first { $0.hasPrefix("Close-up") }
        #expect(
            heading == "Close-up, \(Instant.seconds(expected.window.lowerBound))–"
                + "\(Instant.seconds(expected.window.upperBound))")
        #expect(page.all("p", class: "note").contains { $0.allText.hasPrefix("Where the runs differ most") })
        // No stretch of the same width holds more changed rows.
        let width = expected.window.upperBound - expected.window.lowerBound
        for start in stride(from: 0, through: end - width, by: 0.25) {
            let inside = diff.differences.filter { row in
                row.times.contains { $0 >= start && $0 <= start + width - 0.25 }
            }.count
            #expect(inside <= expected.rows, "\(start)s holds \(inside) changed rows")
        }
        // Sixty clock announcements are a handful of lines, not sixty.
        let rows = page.all("tr", class: "diff-row")
        #expect(rows.count < 12)
        #expect(rows.compactMap { Int($0.attributes["data-rows"] ?? "") }.reduce(0, +) == diff.rows.count)
    }

    @Test func aRunThatPassesEveryCheckIsNeverRedEvenWithFindings() throws {
        let (before, original) = try Self.search()
        var after = original
        #expect(after.checks.allSatisfy(\.passed) && !before.checks.allSatisfy(\.passed))
        after.findings = before.findings
        #expect(!after.findings.isEmpty)
        let page = try Self.page(before, after)
        let verdicts = page.all("ul", class: "verdicts").first?.all("li") ?? []
        #expect(verdicts.map { $0.attributes["class"] ?? "" } == ["fail", "pass"])
        let runs = page.all("section", class: "run")
        #expect(runs.count == 2)
        if runs.count == 2 {
            #expect(
                runs[0].all("tr", class: "finding").allSatisfy { $0.attributes["class"]?.contains("severe") == true })
            let afterRows = runs[1].all("tr", class: "finding")
            #expect(afterRows.count == before.findings.count)
            #expect(afterRows.allSatisfy { $0.attributes["class"]?.contains("warn") == true })
        }
    }

    @Test func switchControlScanTicksAreSoundsAndShownTextLastsToTheEndOfTheRun() throws {
        let report = try ReviewFixtures.report("skeleton-noise/before-switch-control.earshot")
        let lanes = ReviewPage.lanes(of: report.run.timeline)
        let scans = report.run.timeline.events.filter {
            if case .scanHighlight = $0.kind { return true }
            return false
        }
        #expect(!scans.isEmpty)
        let sounds = try #require(lanes.first { $0.name == "Sounds" })
        let ticks = sounds.marks.filter { $0.label == "♪ tick" && $0.shape == .tick }
        #expect(ticks.map(\.start) == scans.map(\.at.seconds))

        var timeline = Timeline()
        timeline.events = [TimelineEvent(at: .seconds(2), kind: .visibleText("Payment complete"))]
        timeline.end = .seconds(9)
        let shown = try #require(ReviewPage.lanes(of: timeline).first { $0.name == "On screen" }?.marks.first)
        #expect(shown.start == 2 && shown.end == 9, "a toast is drawn from when it shows to when it goes")
    }
}

@Suite("Review page: shown text for its duration")
struct ReviewPageToastTests {
    /// A run of a script that shows a toast for 3 s when Pay is activated at 2 s (the app answers 10 ms later).
    static func toastRun() throws -> RunReport {
        let source = """
            title    "A toast"
            profile  voiceover

            screen Main
              button  pay  "Pay"

            on activate pay:
              show text "Payment complete" for 3s

            at 0s      focus pay
            at 2s      activate
            wait 6s
            """
        let folder = try ReviewFixtures.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/toast.earshot"
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        return try ReviewFixtures.report(absolute: path)
    }

    @Test func aToastIsDrawnFromWhenItShowsToWhenItGoes() throws {
        let report = try Self.toastRun()
        let shown = report.run.timeline.events.filter {
            if case .visibleText = $0.kind { return true }
            return false
        }
        #expect(shown.map(\.kind) == [.visibleText("Payment complete", until: .milliseconds(5010))])
        let lane = try #require(ReviewPage.lanes(of: report.run.timeline).first { $0.name == "On screen" })
        #expect(lane.marks.map { "\($0.label) \($0.start)–\($0.end)" } == ["▤ Payment complete 2.01–5.01"])
        #expect(report.run.timeline.transcript().contains("▤ shows \"Payment complete\" until 5.010s"))
        #expect(report.run.timeline.jsonLines().contains("\"until_ms\":5010"))
    }
}
