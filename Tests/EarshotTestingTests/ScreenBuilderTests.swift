import EarshotTesting
import Testing

/// The screen builder speaks each role the way VoiceOver does, and its modifiers change what focus finds.
@Suite struct ScreenBuilderTests {
    static let phrasings: [(TestElement, String)] = [
        (Button("cart", label: "Cart", value: "0 items").testElement, "Cart, 0 items, button"),
        (BackButton("back", label: "Orders").testElement, "Orders, back button"),
        (Link("terms", label: "Terms of use").testElement, "Terms of use, link"),
        (StaticText("total", "Total", value: "$12").testElement, "Total, $12"),
        (Header("title", "Order 1042").testElement, "Order 1042, heading"),
        (Image("logo", label: "Earshot").testElement, "Earshot, image"),
        (SearchField("query", label: "Search products").testElement, "Search products, search field"),
        (TextField("name", label: "Name", text: "Ada").testElement, "Name, Ada, text field"),
        (TextField("password", label: "Password", isSecure: true).testElement, "Password, secure text field"),
        (Toggle("captions", label: "Captions", isOn: true).testElement, "Captions, switch button, on"),
        (Toggle("wifi", label: "Wi-Fi", isOn: false).testElement, "Wi-Fi, switch button, off"),
        (Adjustable("volume", label: "Volume", value: "50%").testElement, "Volume, 50%, adjustable"),
        (Tab("home", label: "Home", isSelected: true).testElement, "Selected, Home, tab, 1 of 1"),
        (Button("pay", label: "Pay").accessibilityAddTraits(.notEnabled), "Pay, Dimmed, button"),
        (StaticText("a", "Old").accessibilityLabel("New").accessibilityValue("3"), "New, 3"),
        (
            Container("card", children: .combine) {
                StaticText("order", "Order 1042")
                StaticText("status", "Shipped")
                StaticText("secret", "internal").accessibilityHidden()
            }.testElement, "Order 1042, Shipped"
        ),
    ]

    @Test(arguments: phrasings)
    func focusingAnElementReadsItsRoleAsVoiceOverDoes(element: TestElement, expected: String) throws {
        let session = ScreenReaderSession(
            screen: TestScreen { element }, synthesizer: try TestingFixtures.synthesizer())
        try session.focus(element.id)
        try session.advance(by: .seconds(8))
        let read = try #require(session.utterances(ofKind: .focusRead).first)
        #expect(read.text == expected)
        #expect(read.wasSpoken)
        // Then only the control's own usage hint, where it has one ("Double tap to edit.").
        let usageHint = element.element.spokenHint()
        #expect(session.spokenPhraseLog == [expected] + (usageHint.isEmpty ? [] : [usageHint]))
    }

    @Test func swipingSkipsHiddenSubtreesAndOpensContainingContainers() throws {
        let screen = TestScreen {
            Container("skeleton") {
                for row in 1...8 { StaticText("row\(row)", "Order 0000").loadingPlaceholder() }
            }
            .accessibilityHidden()
            StaticText("loading", "Loading orders")
            Container("toolbar") {
                Button("filter", label: "Filter")
                Button("sort", label: "Sort")
            }
        }
        let session = ScreenReaderSession(screen: screen, synthesizer: try TestingFixtures.synthesizer())
        var visited: [String] = []
        for _ in 0..<5 {
            try session.swipeNext()
            visited.append(session.focusedElement ?? "")
        }
        #expect(visited == ["loading", "filter", "sort", "sort", "sort"])
        #expect(throws: ScreenReaderSessionError.hidden("row1")) { try session.focus("row1") }
        try session.swipePrevious()
        #expect(session.focusedElement == "filter")
    }

    @Test func aHintIsSpokenAfterTheHintDelayWhenTheReadEndsUninterrupted() throws {
        let session = ScreenReaderSession(
            screen: TestingFixtures.searchScreen(debounce: nil), synthesizer: try TestingFixtures.synthesizer())
        try session.focus("cart")
        try session.advance(by: .seconds(5))
        let read = try #require(session.utterances(matching: "Cart, 0 items, button").first)
        let hint = try #require(session.utterances(ofKind: .hint).first)
        #expect(hint.text == "Opens your cart")
        #expect(try #require(hint.start) - (try #require(read.end)) == .milliseconds(400))
        #expect(session.spokenPhraseLog == ["Cart, 0 items, button", "Opens your cart"])
        #expect(session.silence(between: try #require(read.end), and: try #require(hint.start)))
        #expect(!session.silence(between: .zero, and: .milliseconds(100)))
    }

    /// Speech still sounding breaks the silence up to its end, though its end is not worked out until the clock
    /// reaches it (the engine synthesizes only what is heard): the question synthesizes what it needs.
    @Test func speechStillSoundingBreaksTheSilenceUntilItsEnd() throws {
        let session = ScreenReaderSession(
            screen: TestingFixtures.searchScreen(debounce: nil), synthesizer: try TestingFixtures.synthesizer())
        try session.focus("cart")
        let read = try #require(session.utterances(matching: "Cart, 0 items, button").first)
        #expect(read.end == nil, "still speaking")
        #expect(!session.silence(between: .milliseconds(600), and: .milliseconds(700)))
        #expect(session.silence(between: .seconds(4), and: .seconds(5)))
    }
}
