import EarshotCore
import Testing

/// Every control kind real screens use, with its exact words and order (docs/speech-text.md, "Element phrasing").
@Suite struct ElementPhrasingTests {
    typealias Case = (element: AccessibilityElement, context: PhraseContext, spoken: String)

    static let controls: [Case] = [
        // Headings, with and without a level
        (AccessibilityElement(id: "h", label: "Orders", traits: .header), PhraseContext(), "Orders, heading"),
        (
            AccessibilityElement(id: "h", label: "Settings", traits: .header, headingLevel: 2), PhraseContext(),
            "Settings, heading level 2"
        ),
        // Links
        (AccessibilityElement(id: "l", label: "Terms of use", traits: .link), PhraseContext(), "Terms of use, link"),
        // Images, labelled and not
        (AccessibilityElement(id: "i", label: "Team photo", traits: .image), PhraseContext(), "Team photo, image"),
        (AccessibilityElement(id: "i", traits: .image), PhraseContext(), "image"),
        // Tabs: position, selected
        (
            AccessibilityElement(id: "t", label: "Home", traits: .tab), PhraseContext(position: (1, 4)),
            "Home, tab, 1 of 4"
        ),
        (
            AccessibilityElement(id: "t", label: "Home", traits: [.tab, .selected]),
            PhraseContext(position: (1, 4)), "Selected, Home, tab, 1 of 4"
        ),
        // Toggles
        (
            AccessibilityElement(id: "s", label: "Wi-Fi", switchState: .off), PhraseContext(),
            "Wi-Fi, switch button, off"
        ),
        (
            AccessibilityElement(id: "s", label: "Bluetooth", switchState: .mixed), PhraseContext(),
            "Bluetooth, switch button, mixed"
        ),
        // Adjustable: slider, picker, stepper
        (
            AccessibilityElement(id: "v", label: "Volume", value: "50%", traits: .adjustable), PhraseContext(),
            "Volume, 50%, adjustable"
        ),
        (
            AccessibilityElement(id: "p", label: "Size", value: "Medium", traits: .adjustable), PhraseContext(),
            "Size, Medium, adjustable"
        ),
        // Text fields: value, prompt in place of an empty value, secure text never read
        (
            AccessibilityElement(
                id: "f", label: "Email", value: "ada@example.com", traits: .textField, prompt: "Email"),
            PhraseContext(), "Email, ada@example.com, text field"
        ),
        (
            AccessibilityElement(id: "f", label: "Email", traits: .textField, prompt: "name@example.com"),
            PhraseContext(), "Email, name@example.com, text field"
        ),
        (
            AccessibilityElement(id: "f", label: "Password", value: "••••••", traits: .secureTextField),
            PhraseContext(), "Password, secure text field"
        ),
        (
            AccessibilityElement(id: "f", label: "Password", traits: .secureTextField, prompt: "Required"),
            PhraseContext(), "Password, Required, secure text field"
        ),
        // Selected, dimmed
        (
            AccessibilityElement(id: "b", label: "Pay", traits: [.button, .notEnabled]), PhraseContext(),
            "Pay, Dimmed, button"
        ),
        (
            AccessibilityElement(id: "b", label: "Sort", traits: [.button, .selected]), PhraseContext(),
            "Selected, Sort, button"
        ),
        // List and landmark edges
        (
            AccessibilityElement(id: "r", label: "Order 1041"), PhraseContext(starts: .list),
            "Order 1041, list start"
        ),
        (AccessibilityElement(id: "r", label: "Order 1042"), PhraseContext(ends: .list), "Order 1042, list end"),
        (AccessibilityElement(id: "r", label: "Filters"), PhraseContext(starts: .landmark), "Filters, landmark"),
        // Custom actions
        (
            AccessibilityElement(id: "m", label: "Message from Ada", customActions: ["Delete", "Archive"]),
            PhraseContext(), "Message from Ada, Actions available"
        ),
        (
            AccessibilityElement(
                id: "t", label: "Inbox", traits: .tab, customActions: ["Mark all read"]),
            PhraseContext(position: (2, 4), ends: .list), "Inbox, tab, 2 of 4, list end, Actions available"
        ),
        // Verbosity: trait words off keeps states and positions
        (
            AccessibilityElement(id: "b", label: "Cart", value: "3 items", traits: .button),
            PhraseContext(traitWords: false), "Cart, 3 items"
        ),
        (
            AccessibilityElement(id: "s", label: "Captions", switchState: .on), PhraseContext(traitWords: false),
            "Captions, on"
        ),
        (
            AccessibilityElement(id: "t", label: "Home", traits: [.tab, .selected]),
            PhraseContext(position: (1, 4), traitWords: false), "Selected, Home, 1 of 4"
        ),
    ]

    @Test(arguments: controls)
    func eachControlIsPhrasedInVoiceOversWordsAndOrder(_ row: Case) {
        #expect(row.element.spokenDescription(row.context) == row.spoken)
    }

    static let hints: [(element: AccessibilityElement, traitHints: Bool, hint: String)] = [
        (
            AccessibilityElement(id: "v", label: "Volume", value: "5", traits: .adjustable), true,
            "Swipe up or down with one finger to adjust the value."
        ),
        (
            AccessibilityElement(id: "v", label: "Volume", traits: .adjustable, hint: "Sets the volume"), true,
            "Sets the volume. Swipe up or down with one finger to adjust the value."
        ),
        (AccessibilityElement(id: "s", label: "Wi-Fi", switchState: .on), true, "Double tap to toggle setting."),
        (AccessibilityElement(id: "f", label: "Email", traits: .textField), true, "Double tap to edit."),
        (AccessibilityElement(id: "f", label: "Email", traits: .textField), false, ""),
        (
            AccessibilityElement(id: "v", label: "Volume", traits: .adjustable, hint: "Sets the volume"), false,
            "Sets the volume"
        ),
        (
            AccessibilityElement(id: "b", label: "Cart", traits: .button, hint: "Opens your cart"), true,
            "Opens your cart"
        ),
    ]

    @Test(arguments: hints)
    func controlsAddTheirUsageHintAfterTheAppsHint(
        _ row: (element: AccessibilityElement, traitHints: Bool, hint: String)
    ) {
        #expect(row.element.spokenHint(traitHints: row.traitHints) == row.hint)
    }

    static let listScreen = Screen(
        name: "inbox",
        elements: [
            AccessibilityElement(id: "title", label: "Inbox", traits: .header),
            AccessibilityElement(
                id: "messages", container: .contain,
                children: [
                    AccessibilityElement(id: "m1", label: "From Ada"),
                    AccessibilityElement(id: "m2", label: "From Bob"),
                    AccessibilityElement(id: "m3", label: "From Cy"),
                    AccessibilityElement(id: "m4", label: "Draft", isHidden: true),
                ], containerType: .list),
            AccessibilityElement(id: "compose", label: "Compose", traits: .button),
        ])

    static let listEdges: [(id: String, spoken: String)] = [
        ("title", "Inbox, heading"), ("m1", "From Ada, list start"), ("m2", "From Bob"),
        ("m3", "From Cy, list end"), ("compose", "Compose, button"),
    ]

    @Test(arguments: listEdges)
    func theFirstAndLastReachableElementsOfAListSayWhereTheListStartsAndEnds(_ row: (id: String, spoken: String)) throws
    {
        let screen = Self.listScreen
        let element = try #require(screen.element(row.id))
        let context = screen.phraseContext(of: row.id, in: screen.navigationOrder)
        #expect(element.spokenDescription(context) == row.spoken)
    }

    @Test func theVerbositySettingReachesTheFocusRead() throws {
        var profile = UserProfile.voiceOver
        profile.voiceOver.traitWords = false
        let bench = Bench(profile: profile)
        bench.user(.focus("cart"))
        try bench.advance(ms: 100)
        #expect(bench.records.first?.utterance.text == "Cart, 0 items")
        let standard = Bench()
        standard.user(.focus("cart"))
        try standard.advance(ms: 100)
        #expect(standard.records.first?.utterance.text == "Cart, 0 items, button")
    }

    @Test func aSearchFieldsUsageHintFollowsItsReadUnlessTraitHintsAreOff() throws {
        let bench = Bench()
        bench.user(.focus("query"))
        try bench.advance(ms: 4000)
        #expect(bench.records.map(\.utterance.text) == ["Search products, search field", "Double tap to edit."])
        var profile = UserProfile.voiceOver
        profile.voiceOver.traitHints = false
        let quiet = Bench(profile: profile)
        quiet.user(.focus("query"))
        try quiet.advance(ms: 4000)
        #expect(quiet.records.map(\.utterance.text) == ["Search products, search field"])
    }
}
