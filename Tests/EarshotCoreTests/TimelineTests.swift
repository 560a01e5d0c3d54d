import EarshotCore
import Foundation
import Testing

@Suite struct TimelineTests {
    static func spamRun() throws -> Timeline {
        let reaction = AppReaction(trigger: .typed(in: "query"), actions: [.say("Results updated")])
        let bench = Bench(reactions: [reaction])
        bench.user(.focus("query"))
        for (index, character) in "jasmine".enumerated() {
            bench.simulation.schedule(.type(character), at: .milliseconds(2000 + Int64(index) * 150))
        }
        try bench.simulation.finish(at: .seconds(6))
        return bench.simulation.timeline
    }

    @Test func theSameInputsGiveTheSameTimeline() throws {
        let first = try Self.spamRun()
        let second = try Self.spamRun()
        #expect(first.transcript() == second.transcript())
        #expect(first.jsonLines() == second.jsonLines())
    }

    @Test func transcriptShowsTheCutWordAndWhoCutIt() throws {
        let transcript = try Self.spamRun().transcript()
        #expect(transcript.contains("🗣 echo       j—"))
        #expect(transcript.contains("✂ typingEcho \"j—\" cut by announcement \"Results updated\""))
    }

    @Test func jsonLinesAreOneValidObjectPerLine() throws {
        let lines = try Self.spamRun().jsonLines().split(separator: "\n")
        #expect(lines.count > 20)
        var cuts = 0
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["type"] != nil)
            if object["outcome"] as? String == "interrupted" {
                cuts += 1
                // Echoes are cut by the announcement, and each announcement by the next keystroke's echo.
                let by = try #require(object["cut_by"] as? String)
                #expect(by == "announcement \"Results updated\"" || by.hasPrefix("typingEcho"))
            }
        }
        #expect(cuts >= 7)
    }

    @Test func aCutReportsLastFullWordCutWordAndLostWords() {
        let words = [
            WordBoundary(frame: 0, textRange: 0..<7), WordBoundary(frame: 100, textRange: 8..<9),
            WordBoundary(frame: 200, textRange: 10..<17), WordBoundary(frame: 300, textRange: 18..<22),
        ]
        let timing = SpeechTiming(text: "Reading a product card", frameCount: 400, sampleRate: 22050, words: words)
        let point = timing.cut(afterFrames: 250)
        #expect(point.heardText == "Reading a product")
        #expect(point.lastFullWord == "a")
        #expect(point.cutWord == "product")
        #expect(point.lostWords == ["product", "card"])
        let nothing = timing.cut(afterFrames: 0)
        #expect(nothing.heardText == "")
        #expect(nothing.cutWord == nil)
        #expect(nothing.lostWords.count == 4)
    }
}

@Suite struct PhrasingTests {
    static let cases: [(AccessibilityElement, String)] = [
        (AccessibilityElement(id: "cart", label: "Cart", value: "3 items", traits: .button), "Cart, 3 items, button"),
        (AccessibilityElement(id: "cc", label: "Captions", switchState: .on), "Captions, switch button, on"),
        (
            AccessibilityElement(id: "q", label: "Search products", traits: .searchField),
            "Search products, search field"
        ),
        (
            AccessibilityElement(id: "t", label: "Steep for 3 minutes at 80 °C.", traits: .staticText),
            "Steep for 3 minutes at 80 °C."
        ),
        (
            AccessibilityElement(id: "s", label: "Sort", traits: [.button, .selected, .notEnabled]),
            "Selected, Sort, Dimmed, button"
        ),
        (AccessibilityElement(id: "h", label: "Orders", traits: .header), "Orders, heading"),
        (AccessibilityElement(id: "b", label: "Orders", traits: .backButton), "Orders, back button"),
        (
            AccessibilityElement(
                id: "row", container: .combine,
                children: [
                    AccessibilityElement(id: "a", label: "Order 1042"), AccessibilityElement(id: "b", label: "$12.00"),
                    AccessibilityElement(id: "c", label: "hidden", isHidden: true),
                ]), "Order 1042, $12.00"
        ),
    ]

    @Test(arguments: cases)
    func elementsAreSpokenAsVoiceOverPhrasesThem(element: AccessibilityElement, phrase: String) {
        #expect(element.spokenDescription() == phrase)
    }

    @Test func hiddenSubtreesAndContainContainersShapeTheNavigationOrder() {
        let screen = Screen(
            name: "s",
            elements: [
                AccessibilityElement(id: "back", label: "Back", traits: .backButton),
                AccessibilityElement(
                    id: "skeleton", isHidden: true, container: .contain,
                    children: [AccessibilityElement(id: "p1", label: "Order 0000")]),
                AccessibilityElement(
                    id: "banner", container: .contain,
                    children: [
                        AccessibilityElement(id: "msg", label: "Message sent"),
                        AccessibilityElement(id: "undo", label: "Undo", traits: .button),
                    ]),
            ])
        #expect(screen.navigationOrder.map(\.id) == ["back", "msg", "undo"])
        #expect(!screen.isExposed("p1"))
        #expect(screen.isExposed("undo"))
    }
}
