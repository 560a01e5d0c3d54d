import EarshotCore
import Testing

/// Each finding rule: one scenario that triggers it and one that does not.
@Suite struct FindingRulesTests {
    static func findings(_ bench: Bench, until seconds: Double = 20) throws -> Set<String> {
        try bench.simulation.finish(at: .seconds(seconds))
        return Set(FindingRules.findings(in: bench.simulation.timeline).map(\.rule))
    }

    static func typing(_ actions: [AppAction]) throws -> Set<String> {
        let bench = Bench(reactions: [AppReaction(trigger: .typed(in: "query"), actions: actions)])
        bench.user(.focus("query"))
        for (index, character) in "jasmine".enumerated() {
            bench.simulation.schedule(.type(character), at: .milliseconds(2000 + Int64(index) * 150))
        }
        return try findings(bench)
    }

    @Test func announcementWhileTypingAndEchoCutFireOnPerKeystrokeAnnouncements() throws {
        let found = try Self.typing([.say("Results updated")])
        #expect(found.contains("announcement-while-typing"))
        #expect(found.contains("echo-cut-by-announcement"))
    }

    @Test func aDebouncedCountTriggersNoTypingRule() throws {
        let found = try Self.typing([.debounce(key: "q", delay: .milliseconds(600), actions: [.say("2 results")])])
        #expect(!found.contains("announcement-while-typing"))
        #expect(!found.contains("echo-cut-by-announcement"))
    }

    @Test func announcementCutByAnnouncementFiresOnlyWhenOneCutsAnother() throws {
        let cutting = Bench()
        cutting.post(.say("Added to cart"), .after(.milliseconds(300), [.say("Cart updated, 3 items")]))
        #expect(try Self.findings(cutting).contains("announcement-cut-by-announcement"))
        let single = Bench()
        single.post(.say("Added to cart. 3 items."))
        #expect(!(try Self.findings(single).contains("announcement-cut-by-announcement")))
    }

    @Test func focusReadCutByAnnouncementFiresWhenAnAnnouncementInterruptsAFocusRead() throws {
        let bench = Bench()
        bench.user(.focus("cart"))
        bench.post(.after(.milliseconds(100), [.say("Updated")]))
        #expect(try Self.findings(bench).contains("focus-read-cut-by-announcement"))
        let quiet = Bench()
        quiet.user(.focus("cart"))
        quiet.post(.after(.seconds(5), [.say("Updated")]))
        #expect(!(try Self.findings(quiet).contains("focus-read-cut-by-announcement")))
    }

    @Test func announcementFloodFiresOnATimerAnnouncedEverySecond() throws {
        let flood = Bench()
        flood.post(.repeating(every: .seconds(1), count: 10, actions: [.say("tick")]))
        #expect(try Self.findings(flood).contains("announcement-flood"))
        let calm = Bench()
        calm.post(.repeating(every: .seconds(3), count: 5, actions: [.say("tick")]))
        #expect(!(try Self.findings(calm).contains("announcement-flood")))
    }

    static func skeleton(hidden: Bool) -> [AccessibilityElement] {
        [
            AccessibilityElement(id: "back", label: "Back", traits: .backButton),
            AccessibilityElement(
                id: "skeleton", isHidden: hidden, container: .contain,
                children: [AccessibilityElement(id: "row", label: "Order 0000", isPlaceholder: true)]),
            AccessibilityElement(id: "loading", label: "Loading orders"),
        ]
    }

    @Test func placeholderExposedFiresWhenAPlaceholderIsReached() throws {
        let exposed = Bench(elements: Self.skeleton(hidden: false))
        exposed.user(.swipeNext)
        exposed.user(.swipeNext)
        #expect(try Self.findings(exposed).contains("placeholder-exposed"))
        let hidden = Bench(elements: Self.skeleton(hidden: true))
        hidden.user(.swipeNext)
        hidden.user(.swipeNext)
        #expect(!(try Self.findings(hidden).contains("placeholder-exposed")))
    }

    @Test func soundWithoutTextFiresUnlessVisibleTextChangesWithTheSound() throws {
        let status = [AccessibilityElement(id: "status", label: "")]
        let bare = Bench(elements: status, profile: .soundOff)
        bare.post(.playSound("success", duration: .milliseconds(400)))
        #expect(try Self.findings(bare).contains("sound-without-text"))
        let paired = Bench(elements: status, profile: .soundOff)
        paired.post(.playSound("success", duration: .milliseconds(400)), .setLabel("status", "Payment complete"))
        #expect(!(try Self.findings(paired).contains("sound-without-text")))
        let media = Bench(elements: status, profile: .soundOff)
        media.post(
            .playMedia(MediaTrack(name: "video", duration: .seconds(3), narration: [(.zero, "Steep")], captions: [])))
        #expect(try Self.findings(media).contains("sound-without-text"))
    }

    @Test func stalePollBacklogFiresOnlyForAPollReadAfterItsValueChanged() {
        var timeline = Timeline()
        let watch = AccessibilityElement(id: "watch", label: "Stopwatch", value: "3", traits: .updatesFrequently)
        timeline.screens.record(Screen(name: "s", elements: [watch]), at: .zero, sequence: 0)
        let poll = Utterance(id: 0, text: "1", kind: .poll, elementID: "watch", cause: "poll", requestedAt: .seconds(1))
        timeline.utterances = [
            UtteranceRecord(
                utterance: poll, voice: .standard, rule: "V10",
                outcome: .spoken(start: .seconds(1), end: .seconds(2)))
        ]
        timeline.end = .seconds(3)
        #expect(FindingRules.findings(in: timeline).map(\.rule) == ["stale-poll-backlog"])
        timeline.utterances[0].utterance.text = "3"
        #expect(FindingRules.findings(in: timeline).isEmpty)
    }

    @Test func silentChangingValueFiresWithoutUpdatesFrequentlyAndNotWithIt() throws {
        for frequent in [false, true] {
            let traits: Traits = frequent ? [.staticText, .updatesFrequently] : .staticText
            let bench = Bench(
                elements: [AccessibilityElement(id: "watch", label: "0", traits: traits)], msPerCharacter: 20)
            bench.user(.focus("watch"))
            bench.post(
                .repeating(
                    every: .seconds(1), count: 8, actions: [.setLabel("watch", TextTemplate(parts: [.iteration]))]))
            #expect(try Self.findings(bench, until: 10).contains("silent-changing-value") == !frequent)
        }
    }
}
