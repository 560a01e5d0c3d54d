import EarshotCore
import Testing

/// docs/speech-model.md's worked cases, the twelve given/when/then cases, each named after its rule. Time is advanced by hand.
@Suite struct SpeechModelTests {
    @Test func v1IdleAnnouncementIsSpokenInFullAndFinishesSuccessfully() throws {
        let bench = Bench()
        bench.post(.say("Saved"))
        try bench.advance(ms: 2000)
        let saved = try #require(bench.record("Saved"))
        #expect(saved.wasSpoken)
        #expect(saved.rule == "V1")
        #expect(bench.didFinish.map(\.0) == ["Saved"])
        #expect(bench.didFinish.map(\.1) == [true])
    }

    @Test func v1DefaultAnnouncementCutsTheOneSpeaking() throws {
        let bench = Bench()
        bench.post(.say("Order 1042 is on the way"))
        try bench.advance(ms: 300)
        bench.post(.say("Updated"))
        try bench.advance(ms: 3000)
        let first = try #require(bench.record("Order 1042 is on the way"))
        guard case .interrupted(_, let cut, let by) = first.outcome else {
            Issue.record("expected a cut, got \(first.outcome)")
            return
        }
        #expect(cut == .milliseconds(300))
        #expect(by.description == "announcement \"Updated\"")
        #expect(first.cutPoint?.heardText == "Order 1042")
        #expect(try #require(bench.record("Updated")).wasSpoken)
        #expect(bench.didFinish.map(\.1) == [false, true])
    }

    @Test func v2LowPriorityWaitsForTheCurrentUtterance() throws {
        let bench = Bench()
        bench.post(.say("Receipt uploaded"))
        try bench.advance(ms: 100)
        bench.post(.say("Sync complete", .low))
        try bench.advance(ms: 3000)
        let first = try #require(bench.record("Receipt uploaded"))
        let second = try #require(bench.record("Sync complete"))
        #expect(first.wasSpoken)
        #expect(second.wasSpoken)
        #expect(second.start == first.stop)
        #expect(second.rule == "V2")
    }

    @Test func v3HighPriorityIsNotCutByDefault() throws {
        let bench = Bench()
        bench.post(.say("Payment failed", .high))
        try bench.advance(ms: 100)
        bench.post(.say("Updated"))
        try bench.advance(ms: 3000)
        let high = try #require(bench.record("Payment failed"))
        let later = try #require(bench.record("Updated"))
        #expect(high.wasSpoken)
        #expect(later.start == high.stop)
    }

    @Test func v4SwipeCutsSpeechAndDropsQueuedAnnouncementsWithoutCallback() throws {
        let bench = Bench()
        bench.post(.say("Uploading your receipt now"))
        bench.post(.say("Later news", .low))
        try bench.advance(ms: 200)
        bench.user(.focus("cart"))
        try bench.advance(ms: 3000)
        let low = try #require(bench.record("Later news"))
        #expect(low.outcome == .dropped(at: .milliseconds(200), reason: .focusMoved, by: 2))
        #expect(try #require(bench.record("Uploading your receipt now")).wasInterrupted)
        #expect(try #require(bench.record("Cart, 0 items, button")).wasSpoken)
        #expect(!bench.didFinish.contains { $0.0 == "Later news" })
        #expect(bench.simulation.focusedID == "cart")
    }

    @Test func v5ScreenChangedPlaysEarconFocusesFirstElementAndClearsQueue() throws {
        let detail = Screen(
            name: "detail",
            elements: [
                AccessibilityElement(id: "title", label: "Order 1042", traits: .header),
                AccessibilityElement(id: "back", label: "Orders", traits: .backButton),
            ])
        let bench = Bench(extraScreens: [detail])
        bench.post(.say("Something long being said"), .say("queued", .low))
        try bench.advance(ms: 100)
        bench.post(.showScreen("detail"))
        try bench.advance(ms: 3000)
        #expect(bench.simulation.focusedID == "title")
        #expect(try #require(bench.record("Order 1042, heading")).wasSpoken)
        #expect(
            try #require(bench.record("queued")).outcome
                == .dropped(at: .milliseconds(100), reason: .screenChanged, by: 2))
        #expect(bench.simulation.timeline.events.contains { if case .earcon = $0.kind { true } else { false } })
    }

    @Test func v7LayoutChangedNilLeavesSpeechAndFocusAlone() throws {
        let bench = Bench()
        bench.user(.focus("query"))
        try bench.advance(ms: 100)
        bench.post(.layoutChanged(.none))
        try bench.advance(ms: 3000)
        #expect(try #require(bench.record("Search products, search field")).wasSpoken)
        #expect(bench.simulation.focusedID == "query")
        // Nothing but the read and the search field's own usage hint.
        #expect(bench.records.map(\.utterance.kind) == [.focusRead, .hint])
    }

    @Test func v6LayoutChangedElementMovesFocusAndReadsIt() throws {
        let bench = Bench()
        bench.user(.focus("query"))
        try bench.advance(ms: 100)
        bench.post(.layoutChanged(.element("cart")))
        try bench.advance(ms: 3000)
        #expect(bench.simulation.focusedID == "cart")
        #expect(try #require(bench.record("Search products, search field")).wasInterrupted)
        #expect(try #require(bench.record("Cart, 0 items, button")).utterance.kind == .layoutChange)
    }

    // 230 ms keeps value changes off the poll instants, where same-instant ordering would decide.
    @Test func v10PollerSpeaksAtMostOncePerIntervalAlwaysTheLatestValue() throws {
        let stopwatch = AccessibilityElement(
            id: "watch", label: "Stopwatch", value: "0", traits: [.staticText, .updatesFrequently])
        let bench = Bench(elements: [stopwatch], msPerCharacter: 20)
        bench.user(.focus("watch"))
        bench.post(
            .repeating(
                every: .milliseconds(230), count: 43, actions: [.setValue("watch", TextTemplate(parts: [.iteration]))]))
        try bench.advance(ms: 10_000)
        let polls = bench.records.filter { $0.utterance.kind == .poll && $0.start != nil }
        #expect(polls.count >= 8)
        for (previous, next) in zip(polls, polls.dropFirst()) {
            let gap = try #require(next.start) - (try #require(previous.start))
            #expect(gap >= .seconds(1))
        }
        for poll in polls {
            let start = try #require(poll.start)
            let latest = bench.simulation.timeline.screen(at: start)?.element("watch")?.value
            #expect(poll.utterance.text == latest)
        }
    }

    @Test func v9ValueChangeWithoutUpdatesFrequentlyIsSilent() throws {
        let stopwatch = AccessibilityElement(id: "watch", label: "Stopwatch", value: "0", traits: .staticText)
        let bench = Bench(elements: [stopwatch])
        bench.user(.focus("watch"))
        bench.post(
            .repeating(every: .seconds(1), count: 10, actions: [.setValue("watch", TextTemplate(parts: [.iteration]))]))
        try bench.advance(ms: 12_000)
        #expect(bench.records.map(\.utterance.text) == ["Stopwatch, 0"])
    }

    @Test func v12HintFollowsAnUninterruptedReadAfterTheDelay() throws {
        let bench = Bench()
        bench.user(.focus("cart"))
        try bench.advance(ms: 5000)
        let read = try #require(bench.record("Cart, 0 items, button"))
        let hint = try #require(bench.record("Opens your cart"))
        #expect(hint.start == (try #require(read.stop)) + .milliseconds(400))
    }

    @Test func v12SwipeBeforeTheHintDelayCancelsTheHint() throws {
        let bench = Bench()
        bench.user(.focus("cart"))
        let readEnd = try #require(bench.records.first?.timing?.duration)
        try bench.simulation.advance(to: Instant.zero + readEnd + .milliseconds(200))
        bench.user(.swipePrevious)
        try bench.advance(ms: 5000)
        #expect(bench.record("Opens your cart") == nil)
    }

    @Test func v11AnnouncementTenMillisecondsAfterAKeystrokeCutsTheEcho() throws {
        let reaction = AppReaction(trigger: .typed(in: "query"), actions: [.say("Results updated")])
        let bench = Bench(reactions: [reaction])
        bench.user(.focus("query"))
        try bench.advance(ms: 3000)
        bench.user(.type("j"))
        try bench.advance(ms: 3000)
        let echo = try #require(bench.records.first { $0.utterance.kind == .typingEcho })
        guard case .interrupted(let start, let cut, _) = echo.outcome else {
            Issue.record("echo not cut: \(echo.outcome)")
            return
        }
        #expect(cut - start <= .milliseconds(10))
    }

    @Test func v11DebouncedSearchEchoesEveryKeyAndAnnouncesOnceAfterTyping() throws {
        let counts = ["j": "42", "ja": "17", "jas": "9", "jasm": "4", "jasmi": "3", "jasmin": "3", "jasmine": "2"]
        let announce = AppAction.announce(
            TextTemplate(parts: [.lookup(table: "counts", keyElement: "query"), .literal(" results")]),
            priority: .default, queued: false)
        let reaction = AppReaction(
            trigger: .typed(in: "query"),
            actions: [.debounce(key: "search", delay: .milliseconds(600), actions: [announce])])
        let bench = Bench(msPerCharacter: 30, reactions: [reaction], tables: ["counts": counts])
        bench.user(.focus("query"))
        try bench.advance(ms: 2000)
        for character in "jasmine" {
            bench.user(.type(character))
            try bench.advance(ms: 150)
        }
        try bench.advance(ms: 3000)
        let echoes = bench.records.filter { $0.utterance.kind == .typingEcho }
        #expect(echoes.map(\.utterance.text) == ["j", "a", "s", "m", "i", "n", "e"])
        let announcements = bench.records.filter { $0.utterance.kind == .announcement }
        #expect(announcements.map(\.utterance.text) == ["2 results"])
        let lastKey = try #require(bench.simulation.timeline.keystrokes.last)
        #expect(try #require(announcements.first?.utterance.requestedAt) - lastKey >= .milliseconds(600))
    }

    @Test func skeletonHiddenLoadingElementIsTheOnlyStopAndLoadingKeepsFocusInPlace() throws {
        let skeleton = AccessibilityElement(
            id: "skeleton", isHidden: true, container: .contain,
            children: (1...8).map {
                AccessibilityElement(id: "row\($0)", label: "Order 0000", traits: .staticText, isPlaceholder: true)
            })
        let loading = AccessibilityElement(id: "loading", label: "Loading orders", traits: .staticText)
        let orders = AccessibilityElement(
            id: "orders", isHidden: true, container: .contain,
            children: [AccessibilityElement(id: "order1", label: "Order 1042", traits: .button)])
        let bench = Bench(elements: [skeleton, loading, orders])
        bench.post(.screenChanged(.none))
        for _ in 0..<5 { bench.user(.swipeNext) }
        let visited = Set(
            bench.simulation.timeline.events.compactMap { event -> String? in
                if case .focus(_, let to, _, _) = event.kind { return to }
                return nil
            })
        #expect(visited == ["loading"])
        bench.post(.setHidden("loading", true), .setHidden("orders", false))
        try bench.advance(ms: 0)  // changes in one instant land together, then focus is settled
        #expect(bench.simulation.focusedID == "order1")
        let lastFocus = bench.simulation.timeline.events.last { if case .focus = $0.kind { true } else { false } }
        if case .focus(_, _, let index, _)? = lastFocus?.kind { #expect(index == 0) }
    }

    @Test func v3EverythingWaitingBehindAHighAnnouncementKeepsItsArrivalOrder() throws {
        let bench = Bench()
        bench.post(.say("Payment failed", .high))
        try bench.advance(ms: 100)
        bench.post(.say("First"), .say("Second"), .say("Later", .low), .say("Third"))
        try bench.advance(ms: 10_000)
        let order = bench.records.filter(\.wasSpoken).sorted { ($0.start ?? .zero) < ($1.start ?? .zero) }
        #expect(order.map(\.utterance.text) == ["Payment failed", "First", "Second", "Third", "Later"])
    }

    @Test func v12NoHintOnceFocusHasNowhereToGo() throws {
        let lone = [AccessibilityElement(id: "buy", label: "Buy", traits: .button, hint: "Double tap to buy")]
        let bench = Bench(elements: lone)
        bench.user(.focus("buy"))
        let readEnd = try #require(bench.records.first?.timing?.duration)
        try bench.simulation.advance(to: Instant.zero + readEnd + .milliseconds(100))
        bench.post(.setHidden("buy", true))
        try bench.advance(ms: 3000)
        #expect(bench.simulation.focusedID == nil)
        #expect(bench.record("Double tap to buy") == nil)
    }

    @Test func v5ScreenChangedToAnEmptyScreenStillFlushesSpeech() throws {
        let empty = Screen(name: "empty", elements: [AccessibilityElement(id: "spinner", isHidden: true)])
        let bench = Bench(extraScreens: [empty])
        bench.post(.say("Something long being said"), .say("queued", .low))
        try bench.advance(ms: 200)
        bench.post(.showScreen("empty"))
        try bench.advance(ms: 5000)
        #expect(try #require(bench.record("Something long being said")).wasInterrupted)
        #expect(!(try #require(bench.record("queued")).wasSpoken))
    }

    @Test func anAnnouncementPostedWithTheUpdateThatRemovesTheFocusedElementIsHeard() throws {
        let banner = AccessibilityElement(
            id: "banner", container: .contain,
            children: [AccessibilityElement(id: "undo", label: "Undo", traits: .button)])
        let bench = Bench(elements: [
            banner, AccessibilityElement(id: "attach", label: "Attach photo", traits: .button),
        ])
        bench.user(.focus("undo"))
        try bench.advance(ms: 3000)
        bench.post(.setHidden("banner", true), .say("Message restored"))
        try bench.advance(ms: 5000)
        #expect(bench.simulation.focusedID == "attach")
        #expect(try #require(bench.record("Message restored")).wasSpoken)
    }
}
