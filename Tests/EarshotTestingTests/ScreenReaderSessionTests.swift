import EarshotTesting
import Testing

/// The driver and the questions about what was heard, in the VoiceOver vocabulary of docs/speech-model.md.
@Suite struct ScreenReaderSessionTests {
    static func shop() throws -> ScreenReaderSession {
        let screen = TestScreen {
            Header("title", "Jasmine tea")
            Button("add", label: "Add to cart")
            Button("cart", label: "Cart", value: "2 items")
            Toggle("gift", label: "Gift wrap", isOn: false)
        }
        .onActivate("add") {
            [.value(of: "cart", to: "3 items"), .announcement("Added to cart. \(valueOf: "cart").")]
        }
        .onActivate("title") {
            AppEvent.value(of: "cart", to: "0 items")
            AppEvent.announcement("Cart emptied")
        }
        .onActivate("cart") {
            .showScreen("cart")
        }
        let cart = TestScreen("cart") {
            Header("cartTitle", "Your cart")
            BackButton("back", label: "Shop")
        }
        return ScreenReaderSession(screen: screen, otherScreens: [cart], synthesizer: try TestingFixtures.synthesizer())
    }

    @Test func activatingAButtonRunsTheAppReactionAndItsAnnouncementIsHeard() throws {
        let session = try Self.shop()
        try session.focus("add")
        try session.advance(by: .seconds(3))
        try session.activate()
        try session.advance(by: .seconds(4))
        #expect(session.element("cart")?.value == "3 items")
        let added = try #require(session.announcements.first)
        #expect(added.text == "Added to cart. 3 items.")
        #expect(added.wasSpoken)
        #expect(added.requestedAt == .seconds(3) + .milliseconds(10))  // the app's next run-loop turn
        #expect(session.announcementCompletions.map(\.wasSuccessful) == [true])
        #expect(session.lastSpokenPhrase == "Added to cart. 3 items.")
        try session.activate("title")
        try session.advance(by: .seconds(3))
        #expect(session.element("cart")?.value == "0 items")
        #expect(session.lastSpokenPhrase == "Cart emptied")
    }

    @Test func activatingASwitchFlipsItAndSpeaksTheNewState() throws {
        let session = try Self.shop()
        try session.focus("gift")
        try session.advance(by: .seconds(3))
        try session.activate()
        try session.advance(by: .seconds(2))
        #expect(session.element("gift")?.switchState == .on)
        #expect(session.lastSpokenPhrase == "on")
        #expect(session.utterances(ofKind: .valueEcho).map(\.text) == ["on"])
    }

    @Test func aDefaultAnnouncementCutsTheOneSpeakingAtAWord() throws {
        let session = try Self.shop()
        try session.post(.announcement("Your order 1042 is on the way to the depot"))
        try session.advance(by: .milliseconds(800))
        try session.post(.announcement("Updated"))
        try session.advance(by: .seconds(3))
        let first = try #require(session.utterances(matching: /^Your order/).first)
        #expect(first.wasInterrupted)
        #expect(first.cutBy == "Updated")
        #expect(first.end == .milliseconds(800))
        #expect(!first.heardText.isEmpty && first.text.hasPrefix(first.heardText))
        #expect(first.heardText != first.text)
        #expect(!first.lostWords.isEmpty)
        #expect(session.spokenPhraseLog == [first.heardText, "Updated"])
        #expect(session.announcementCompletions.map(\.wasSuccessful) == [false, true])
    }

    @Test(arguments: [(Priority.low, false), (.default, true), (.high, true)])
    func aSecondAnnouncementWaitsOrCutsByPriority(priority: Priority, cuts: Bool) throws {
        let session = try Self.shop()
        try session.post(.announcement("Receipt uploaded to your account"))
        try session.advance(by: .milliseconds(300))
        try session.post(.announcement("Sync complete", priority: priority))
        try session.advance(by: .seconds(5))
        let first = try #require(session.announcements.first)
        let second = try #require(session.announcements.last)
        #expect(first.wasInterrupted == cuts)
        #expect(second.wasSpoken)
        if !cuts { #expect(second.start == first.end) }
    }

    @Test func aHighPriorityAnnouncementIsNotCutAndTheNextOneWaits() throws {
        let session = try Self.shop()
        try session.post(.announcement("Payment failed", priority: .high))
        try session.advance(by: .milliseconds(100))
        try session.post(.announcement("Updated"))
        try session.advance(by: .seconds(4))
        #expect(session.spokenPhraseLog == ["Payment failed", "Updated"])
        let high = try #require(session.utterances(matching: "Payment failed").first)
        #expect(try #require(session.utterances(matching: "Updated").first).start == high.end)
    }

    @Test func showingAnotherScreenPlaysTheEarconAndReadsItsFirstElement() throws {
        let session = try Self.shop()
        try session.focus("cart")
        try session.advance(by: .seconds(3))
        try session.activate()
        try session.advance(by: .seconds(3))
        #expect(session.focusedElement == "cartTitle")
        #expect(session.utterances(ofKind: .screenChange).map(\.text) == ["Your cart, heading"])
        #expect(session.transcript.contains("♪ earcon screen-changed"))
    }

    @Test func layoutChangedMovesFocusOnlyWhenGivenAnElement() throws {
        let session = try Self.shop()
        try session.focus("title")
        try session.post(.layoutChanged)
        #expect(session.focusedElement == "title")
        try session.post(.layoutChanged(focusing: "cart"))
        try session.advance(by: .seconds(3))
        #expect(session.focusedElement == "cart")
        let title = try #require(session.utterances(matching: "Jasmine tea, heading").first)
        #expect(title.cutBy == "Cart, 2 items, button")
        try session.post(.layoutChanged(announcing: "3 new messages"))
        try session.advance(by: .seconds(3))
        #expect(session.lastSpokenPhrase == "3 new messages")
        #expect(session.focusedElement == "cart")
    }

    @Test func elementChangesFromTheAppUpdateTheScreenAndHidingTheFocusedElementMovesFocus() throws {
        let session = try Self.shop()
        try session.focus("add")
        try session.post(
            .toggle("gift", isOn: true), .addTraits(.selected, to: "cart"), .label(of: "title", to: "Green tea"))
        #expect(session.element("gift")?.switchState == .on)
        #expect(session.element("cart")?.traits.contains(.selected) == true)
        #expect(session.element("title")?.label == "Green tea")
        try session.post(.hidden("add"))
        #expect(session.focusedElement == "cart")
        try session.advance(by: .seconds(3))
        #expect(session.lastSpokenPhrase == "Selected, Cart, 2 items, button")
        try session.post(.pageScrolled("Page 2 of 5"))
        try session.advance(by: .seconds(2))
        #expect(session.utterances(ofKind: .pageScrolled).map(\.text) == ["Page 2 of 5"])
    }

    @Test func aTimerAfterADelayRunsOnTheVirtualClock() throws {
        let session = try Self.shop()
        try session.post(.after(.seconds(2)) { .announcement("Order shipped") })
        try session.advance(by: .milliseconds(1999))
        #expect(session.announcements.isEmpty)
        try session.advance(by: .milliseconds(1))
        #expect(session.announcements.first?.start == .seconds(2))
        #expect(session.now == .seconds(2))
    }

    @Test func finishingCutsSpeechStillSoundingAndStopsTheSession() throws {
        let session = try Self.shop()
        try session.post(.announcement("A long message that is still being read"))
        try session.advance(by: .milliseconds(500))
        try session.finish()
        #expect(session.announcements.first?.cutBy == "scenario ended")
        #expect(throws: ScreenReaderSessionError.finished) { try session.advance(by: .seconds(1)) }
    }

    @Test func misuseIsReportedWithAClearError() throws {
        let session = try Self.shop()
        #expect(throws: ScreenReaderSessionError.nothingFocused) { try session.activate() }
        #expect(throws: ScreenReaderSessionError.self) { try session.focus("checkout") }
        try session.focus("add")
        #expect(throws: ScreenReaderSessionError.notATextField(focused: "add")) { try session.type("x") }
        let unknown = ["a": "1"]
        #expect(throws: ScreenReaderSessionError.unknownLookupTable(unknown)) {
            try session.post(.announcement("\(unknown, keyedBy: "cart")"))
        }
        let error = ScreenReaderSessionError.noSuchElement("checkout", known: ["add"])
        #expect(error.description == "no element \"checkout\" on the screen (ids: add)")
    }

    @Test func lookupTablesGivenAtTheStartCanBeReadByPostedEvents() throws {
        let names = ["2 items": "two", "3 items": "three"]
        let session = ScreenReaderSession(
            screen: TestScreen { Button("cart", label: "Cart", value: "2 items") },
            synthesizer: try TestingFixtures.synthesizer(), lookupTables: [names])
        try session.post(.announcement("\(names, keyedBy: "cart") in your cart"))
        try session.advance(by: .seconds(3))
        #expect(session.spokenPhraseLog == ["two in your cart"])
    }
}
