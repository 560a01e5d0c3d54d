import EarshotCore
import Foundation
import Testing

/// Speech cut before anything of it was heard is shown with its text, marked "nothing heard", and a cut by
/// such speech says its cutter was never heard itself.
@Suite struct LostSpeechTests {
    /// "Added to cart" speaks for 300 ms; then "11:30" and "Your order is on the way" are posted together, so
    /// "11:30" is cut at its first frame.
    static func frameZeroCut() throws -> Timeline {
        let bench = Bench()
        bench.post(
            .say("Added to cart"),
            .after(.milliseconds(300), [.say("11:30"), .say("Your order is on the way")]))
        try bench.simulation.finish(at: .seconds(5))
        return bench.simulation.timeline
    }

    /// The same, with "11:30" alone: it is heard.
    static func heardCut() throws -> Timeline {
        let bench = Bench()
        bench.post(.say("Added to cart"), .after(.milliseconds(300), [.say("11:30")]))
        try bench.simulation.finish(at: .seconds(5))
        return bench.simulation.timeline
    }

    @Test func aFrameZeroCutIsMarkedNothingHeardAndAHeardCutIsNot() throws {
        let lost = try #require(try Self.frameZeroCut().utterances.first { $0.utterance.text == "11:30" })
        #expect(lost.wasCutBeforeHeard)
        let first = try #require(try Self.frameZeroCut().utterances.first { $0.utterance.text == "Added to cart" })
        #expect(first.wasInterrupted && !first.wasCutBeforeHeard)
        let heard = try #require(try Self.heardCut().utterances.first { $0.utterance.text == "Added to cart" })
        #expect(heard.wasInterrupted && !heard.wasCutBeforeHeard)
    }

    @Test func theTranscriptShowsTheLostTextAndThatItsCutterWasNeverHeard() throws {
        let transcript = try Self.frameZeroCut().transcript()
        #expect(transcript.contains("🗣 announce   [nothing heard] 11:30  (300ms–300ms)"), "\(transcript)")
        #expect(
            transcript.contains(
                "✂ announcement \"11:30\" cut before anything was heard, by announcement \"Your order is on the way\""))
        #expect(transcript.contains("cut by announcement \"11:30\" (itself never heard)"))
        #expect(!transcript.contains(" —  ("), "a bare dash hides what was lost")
        let plain = try Self.heardCut().transcript()
        #expect(!plain.contains("nothing heard") && !plain.contains("itself never heard"))
        #expect(plain.contains("cut by announcement \"11:30\"\n"))
    }

    @Test func jsonLinesMarkNothingHeardAndACutterNeverHeard() throws {
        func objects(_ timeline: Timeline) throws -> [String: [String: Any]] {
            var byText: [String: [String: Any]] = [:]
            for line in timeline.jsonLines().split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                if object["type"] as? String == "utterance", let text = object["text"] as? String {
                    byText[text] = object
                }
            }
            return byText
        }
        let lost = try objects(Self.frameZeroCut())
        #expect(lost["11:30"]?["nothing_heard"] as? Bool == true)
        #expect(lost["Added to cart"]?["nothing_heard"] as? Bool == false)
        #expect(lost["Added to cart"]?["cut_by_never_heard"] as? Bool == true)
        let heard = try objects(Self.heardCut())
        #expect(heard["Added to cart"]?["cut_by_never_heard"] as? Bool == false)
    }

    @Test func theNeverHeardFindingFiresOnALostAnnouncementAndNotOnAHeardCut() throws {
        let lost = FindingRules.findings(in: try Self.frameZeroCut())
        let finding = try #require(lost.first { $0.rule == "announcement-never-heard" })
        #expect(finding.impact == .serious)
        #expect(finding.message.contains("\"11:30\" posted at 300ms and never heard"))
        #expect(!FindingRules.findings(in: try Self.heardCut()).contains { $0.rule == "announcement-never-heard" })
    }

    @Test func theNeverHeardFindingFiresOnAnAnnouncementDroppedByAFocusMove() throws {
        let bench = Bench()
        bench.post(.say("Added to cart"), .say("Cart updated", queued: true))
        try bench.advance(ms: 200)
        bench.user(.focus("cart"))
        try bench.simulation.finish(at: .seconds(5))
        let dropped = try #require(bench.record("Cart updated"))
        guard case .dropped = dropped.outcome else {
            Issue.record("expected \"Cart updated\" dropped, got \(dropped.outcome)")
            return
        }
        let findings = FindingRules.findings(in: bench.simulation.timeline)
        #expect(findings.contains { $0.rule == "announcement-never-heard" && $0.message.contains("dropped") })
    }

    @Test func speechTheProfileNeverSpeaksIsNotReportedAsNeverHeard() throws {
        let bench = Bench(profile: .soundOff)
        bench.post(.say("Added to cart"))
        try bench.simulation.finish(at: .seconds(5))
        #expect(
            !FindingRules.findings(in: bench.simulation.timeline).contains { $0.rule == "announcement-never-heard" })
    }
}
