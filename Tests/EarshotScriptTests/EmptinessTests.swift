import EarshotCore
import EarshotScript
import Testing

/// Emptiness is never silent: a data-table miss stops the run naming the line and the key (unless the table
/// declares a default), an empty announcement is a finding, and a pattern name must be a card's or declared.
@Suite struct EmptinessTests {
    static func search(_ dataLine: String, typing: String) -> String {
        """
        title "search"
        pattern announcement-spam
        variant after
        screen S
          searchField query "Search"
        \(dataLine)
        on type in query:
          announce "{results-for query} results"
        at 0s focus query
        at 1s type "\(typing)"
        wait 2s
        check "c":
          at least 1 announcement
        """
    }

    @Test func aDataTableMissStopsTheRunNamingTheLineAndTheKey() throws {
        let source = Self.search("data results-for query: j=42 ja=17", typing: "jx")
        #expect {
            try CheckTestSupport.run(source)
        } throws: { error in
            guard let miss = error as? TemplateMiss else { return false }
            return miss.table == "results-for" && miss.key == "jx" && miss.origin == "test.earshot:8:3"
                && miss.description.hasPrefix(
                    "test.earshot:8:3: data table 'results-for' has no entry for \"jx\" (the value of query) at ")
        }
    }

    @Test func aTableWithEveryKeyOrADefaultRunsToTheEnd() throws {
        let complete = try CheckTestSupport.run(Self.search("data results-for query: j=42 ja=17", typing: "ja"))
        #expect(complete.timeline.utterances.map(\.utterance.text).contains("17 results"))
        let fallback = try CheckTestSupport.run(
            Self.search("data results-for query default \"no\": j=42 ja=17", typing: "jx"))
        #expect(fallback.timeline.utterances.map(\.utterance.text).contains("no results"))
        #expect(fallback.document.dataTables.first?.defaultValue == "no")
    }

    @Test(arguments: [("announce \"\"", true), ("announce \"  \"", true), ("announce \"Saved\"", false)])
    func anEmptyAnnouncementIsAFindingAndIsNeverHeard(action: String, empty: Bool) throws {
        let body = """
            title "empty"
            screen S
              button a "Alpha"
            at 0s focus a
            at 300ms \(action)
            wait 2s
            """
        let run = try CheckTestSupport.run(body)
        let findings = FindingRules.findings(in: run.timeline).filter { $0.rule == "empty-announcement" }
        #expect(findings.isEmpty == !empty, "\(findings)")
        #expect(FindingRules.rule("empty-announcement")?.impact == .moderate)
        // Nobody hears an announcement without words: it is posted and lost, never counted as heard.
        for (assertion, passes) in [
            ("exactly 1 announcement", !empty), ("exactly 1 lost announcement", empty),
            ("exactly 1 posted announcement", true), ("exactly 1 announcement heard in full", !empty),
        ] {
            let result = try #require(try CheckTestSupport.verdict(assertion, in: body))
            #expect(result.passed == passes, "\(action): \(assertion): \(result.evidence)")
        }
        let evidence = try #require(try CheckTestSupport.verdict("no announcement", in: body)).evidence
        #expect(evidence.contains { $0.hasSuffix("nothing heard: it has no words") } == empty, "\(evidence)")
    }

    @Test(arguments: [
        ("pattern anouncement-spam\nvariant before", "unknown pattern 'anouncement-spam'"),
        ("pattern my-own-rule\nvariant before", "unknown pattern 'my-own-rule'"),
        ("pattern announcement-spam", "missing header field 'variant'"),
        ("variant after", "missing header field 'pattern'"),
        ("variant standalone", "unknown variant 'standalone'"),
    ])
    func anUnknownOrHalfDeclaredPatternIsRejected(header: String, message: String) {
        let errors = CheckTestSupport.parseErrors("title \"t\"\n\(header)\nscreen S\n  button a \"A\"\n")
        #expect(errors.contains { $0.hasPrefix(message) }, "\(errors)")
    }

    @Test func unknownPatternsSuggestTheNearestCard() throws {
        do {
            _ = try ScenarioParser.parse(
                source: "title \"t\"\npattern anouncement-spam\nvariant before\nscreen S\n  button a \"A\"\n",
                path: "t.earshot")
            Issue.record("an unknown pattern must be rejected")
        } catch {
            #expect(error.diagnostics.first?.hint?.hasPrefix("did you mean 'announcement-spam'?") == true)
            #expect(error.diagnostics.first?.hint?.contains("pattern custom anouncement-spam") == true)
        }
    }

    @Test(arguments: [
        ("pattern custom my-own-rule\nvariant before", "my-own-rule" as String?, ScenarioVariant.before),
        ("pattern skeleton-noise\nvariant after", "skeleton-noise", .after),
        ("", nil, .standalone),
    ])
    func aCardACustomPatternOrNoneParses(header: String, pattern: String?, variant: ScenarioVariant) throws {
        let document = try ScenarioParser.parse(
            source: "title \"t\"\n\(header)\nscreen S\n  button a \"A\"\n", path: "t.earshot")
        #expect(document.header.pattern == pattern)
        #expect(document.header.variant == variant)
    }
}
