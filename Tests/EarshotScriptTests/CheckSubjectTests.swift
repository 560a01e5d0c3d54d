import EarshotCore
import EarshotScript
import Testing

/// Each count subject means one thing (posted, heard, heard in full, cut, dropped, lost), and every assertion
/// the language offers is seen both passing and failing on a real run.
@Suite struct CheckSubjectTests {
    /// One run holds every case: a queued announcement dropped by a swipe (3.2s), one cut at its first frame
    /// (6s), one cut after a word (8.4s), a screen change with its earcon (11s), hints on.
    static let body = """
        title "subjects"
        pattern announcement-spam
        variant before
        hints on
        screen S
          button a "Alpha" hint "Opens alpha"
          button b "Beta"
        screen T
          button c "Gamma"
        at 0s announce "Welcome"
        at 0s focus a
        at 3s announce "Saving your order now, please wait" priority high
        +100ms announce "Added to cart" queued
        +100ms swipe next
        at 6s announce "Added to cart"
        at 6s announce "Cart updated"
        at 8s announce "Removed from cart"
        +400ms announce "Cart is empty"
        at 11s show screen T
        wait 3s
        """

    /// The new user's case: the only "Added" announcements were dropped or cut before a word was heard.
    @Test(arguments: [
        (#"exactly 1 announcement matching "Added""#, false),
        (#"no announcement matching "Added""#, true),
        (#"no heard announcement matching "Added""#, true),
        (#"exactly 2 posted announcements matching "Added""#, true),
        (#"exactly 2 lost announcements matching "Added""#, true),
        (#"no lost announcement matching "Cart updated""#, true),
        (#"exactly 1 lost announcement matching "Cart updated""#, false),
        (#"exactly 1 dropped announcement matching "Added""#, true),
        (#"exactly 1 dropped announcement matching "Added" because focus moved"#, true),
        (#"exactly 1 announcement dropped because screen changed"#, false),
        (#"no dropped announcement"#, false),
        (#"exactly 1 cut announcement matching "Added" by announcement matching "Cart updated""#, true),
        (#"exactly 1 cut announcement matching "Added" by echo"#, false),
        (#"exactly 1 announcement matching "Removed" cut by announcement matching "empty""#, true),
        (#"exactly 1 announcement matching "Removed""#, true),
        (#"exactly 1 announcement matching "Removed" heard in full"#, false),
        (#"exactly 1 announcement matching "Cart updated" heard in full"#, true),
        (#"no speech matching "Added""#, true),
        (#"at least 1 speech matching "Added""#, false),
        // "after announcement matching" opens at the end of the first one heard: no "Added" was heard.
        (#"at least 1 speech after announcement matching "Added""#, false),
        (#"at least 1 speech after announcement matching "Cart updated""#, true),
        (#"at least 2 cuts"#, true),
        (#"no cuts"#, false),
    ])
    func speechCountsCountWhatTheirFateSays(assertion: String, passes: Bool) throws {
        let result = try #require(try CheckTestSupport.verdict(assertion, in: Self.body))
        #expect(result.passed == passes, "\(assertion): \(result.evidence)")
    }

    @Test func evidenceGivesEveryUtteranceItsFateAndListsWhatItLeftOut() throws {
        let result = try #require(
            try CheckTestSupport.verdict(#"exactly 1 announcement matching "Added""#, in: Self.body))
        #expect(result.evidence.first == "found 0 heard in 0ms–14.000s")
        #expect(
            result.evidence.contains {
                $0.hasPrefix("not counted (not heard): 3.100s–3.200s announcement \"Added to cart\"")
                    && $0.hasSuffix("nothing heard: dropped (focus moved)")
            })
        #expect(
            result.evidence.contains {
                $0.contains("6.000s–6.000s announcement \"Added to cart\": nothing heard: cut by announcement")
                    && $0.hasSuffix("before its first word")
            })
        #expect(!result.evidence.joined().contains("\"—\""), "a cut at frame 0 never reads as a bare dash")
    }

    @Test func evidenceBeyondTwelveItemsStillGivesTheirFates() throws {
        let many = Self.body.replacingOccurrences(
            of: "wait 3s", with: "at 15s every 100ms times 14 announce \"tick {count}\"\nwait 3s")
        let result = try #require(try CheckTestSupport.verdict(#"no announcement matching "tick""#, in: many))
        #expect(!result.passed)
        #expect(result.evidence.count == 14, "\(result.evidence)")
        #expect(result.evidence.last == "… and 2 more: 1 cut, 1 heard in full", "\(result.evidence)")
    }

    @Test(arguments: [
        (#"exactly 1 announcementDidFinish matching "Cart updated" wasSuccessful true"#, true),
        (#"exactly 1 announcementDidFinish matching "Cart updated" wasSuccessful false"#, false),
        (#"at least 2 announcementDidFinish wasSuccessful false"#, true),
        (#"no announcementDidFinish matching "Saving" wasSuccessful false"#, true),
        // The dropped one gets no callback; the one cut at frame 0 gets an unsuccessful one.
        (#"exactly 1 announcementDidFinish matching "Added""#, true),
        (#"no announcementDidFinish matching "Added""#, false),
        (#"no announcementDidFinish matching "Gamma""#, true),
        (#"exactly 1 earcon"#, true),
        (#"no earcons before 11s"#, true),
        (#"no earcon"#, false),
        (#"focus is on b at 5s"#, true),
        (#"focus is on a at 5s"#, false),
        (#"focus is on c at 11s"#, true),
        (#"focus is on nothing at 0s"#, false),
        (#"hint on a starts after focus read on a ends"#, true),
        (#"focus read on a starts after hint on a ends"#, false),
        (#"hint starts within 500ms after focus read ends"#, true),
        (#"hint starts at least 1s after focus read ends"#, false),
        (#"focus read on b starts after announcement matching "Saving" ends"#, true),
        (#"announcement matching "Saving" starts after focus read on b ends"#, false),
        // "Cart is empty" starts the instant "Removed from cart" stops, because it cut it.
        (#"announcement matching "Cart is empty" starts after announcement matching "Removed" ends"#, false),
        (#"announcement matching "Cart updated" starts after focus read on b ends"#, true),
        (#"focus read on a starts after announcement matching "Welcome" ends"#, false),
        (#"focus read on b waits at least 1s"#, true),
        (#"focus read on b waits at most 500ms"#, false),
        (#"announcement matching "Cart updated" waits at most 10ms"#, true),
        (#"announcement matching "Cart updated" waits at least 1s"#, false),
        (#"announcement matching "Added" waits at most 5s"#, false),
    ])
    func callbacksEarconsFocusOrderAndWaitingHoldOrFail(assertion: String, passes: Bool) throws {
        let result = try #require(try CheckTestSupport.verdict(assertion, in: Self.body))
        #expect(result.passed == passes, "\(assertion): \(result.evidence)")
    }

    @Test(arguments: [
        (#"no dropped captions"#, "'dropped' qualifies speech, not captions"),
        (#"no dropped announcement because the network"#, "expected why it was dropped"),
        (#"no sound wasSuccessful true"#, "'wasSuccessful' qualifies announcementDidFinish callbacks"),
        (#"no heard announcement dropped"#, "a count takes one fate; this line names two"),
        (#"no dropped announcement by echo"#, "'by' names what cut speech: use it with 'cut'"),
        (#"hint starts after caption ends"#, "expected the speech it follows"),
        (#"hint waits soon"#, "expected 'at most' or 'at least' and a span"),
        (#"focus is on b"#, "expected 'at' and a time"),
    ])
    func malformedSubjectsAreRejected(assertion: String, message: String) {
        let errors = CheckTestSupport.parseErrors(Self.body + "\ncheck \"c\":\n  \(assertion)\n")
        #expect(errors.contains { $0.hasPrefix(message) }, "\(assertion): \(errors)")
    }
}
