import Testing

@testable import EarshotCore

/// The engine's per-version screen index gives exactly the answers of the screen's own tree walks, and follows
/// tree changes; JSON strings written in whole runs are the bytes the one-scalar-at-a-time writer gave.
@Suite struct ScreenIndexTests {
    /// A tree with every shape the walks treat differently: a hidden subtree, a combining group, a contain group,
    /// a list inside a landmark, tabs, an unlabeled control, an empty text and an id repeated in a hidden branch.
    static let screen = Screen(
        name: "s",
        elements: [
            AccessibilityElement(id: "title", label: "Orders", traits: .header),
            AccessibilityElement(id: "empty", traits: .staticText),
            AccessibilityElement(
                id: "banner", isHidden: true, container: .contain,
                children: [
                    AccessibilityElement(id: "sent", label: "Sent"),
                    AccessibilityElement(id: "twin", label: "Hidden twin"),
                ]),
            AccessibilityElement(
                id: "main", container: .contain,
                children: [
                    AccessibilityElement(
                        id: "rows", container: .contain,
                        children: (1...4).map { AccessibilityElement(id: "row-\($0)", label: "Row \($0)") },
                        containerType: .list),
                    AccessibilityElement(id: "twin", label: "Visible twin"),
                    AccessibilityElement(
                        id: "card", label: "Card", container: .combine,
                        children: [AccessibilityElement(id: "inner", label: "Inner")]),
                ], containerType: .landmark),
            AccessibilityElement(id: "unlabeled", traits: .button),
            AccessibilityElement(id: "tab-1", label: "Home", traits: [.tab, .selected]),
            AccessibilityElement(id: "tab-2", label: "Orders", traits: .tab),
            AccessibilityElement(id: "hidden-leaf", label: "Gone", isHidden: true),
        ])

    /// Every lookup of `index` against the walks of `screen`.
    static func expectMatches(_ index: ScreenIndex, _ screen: Screen, traitWords: Bool = true) {
        let order = screen.navigationOrder
        #expect(index.order == order)
        for id in screen.allIDs + ["nowhere"] {
            #expect(index.position(of: id) == order.firstIndex { $0.id == id }, "\(id)")
            #expect(index.element(id) == screen.element(id), "\(id)")
            #expect(index.isExposed(id) == screen.isExposed(id), "\(id)")
            #expect(
                index.phraseContext(of: id, traitWords: traitWords)
                    == screen.phraseContext(of: id, in: order, traitWords: traitWords), "\(id)")
        }
    }

    @Test(arguments: [true, false])
    func everyLookupMatchesTheTreeWalk(traitWords: Bool) {
        let screen = Self.screen
        let index = ScreenIndex(screen)
        Self.expectMatches(index, screen, traitWords: traitWords)
        // The tree has what the comparison is for: edges, tab positions, a hidden element, a repeated id.
        #expect(index.phraseContext(of: "row-1", traitWords: true).starts == .list)
        #expect(index.phraseContext(of: "row-4", traitWords: true).ends == .list)
        #expect(index.phraseContext(of: "tab-2", traitWords: true).position?.index == 2)
        #expect(!index.isExposed("sent"))
        #expect(index.element("twin")?.label == "Hidden twin")
    }

    /// A change that keeps the tree's shape is taken in place (the element, and the combining card holding it, are
    /// refreshed); one that changes what VoiceOver can reach is refused, so the engine rebuilds.
    @Test(arguments: [
        ("row-2", "Row two", "", false, true),  // a list row inside a landmark
        ("inner", "", "3 new", false, true),  // inside a combining card: the card's own entry changes too
        ("title", "Order history", "", false, true),
        ("sent", "Delivered", "", false, true),  // inside a hidden banner
        ("row-3", "", "", false, false),  // emptied: no longer an element
        ("row-1", "Row 1", "", true, false),  // hidden: leaves the order
    ])
    func aShapeKeepingChangeIsTakenInPlace(
        id: String, label: String, value: String, hide: Bool, inPlace: Bool
    ) throws {
        var screen = Self.screen
        // With the id "twin" twice, no change is taken in place (which element an id means needs the walk).
        var duplicated = ScreenIndex(screen)
        let path = try #require(duplicated.path(of: id))
        let old = try #require(duplicated.element(id))
        var changed = screen
        changed.update(at: path) { $0.label = label }
        let tookDuplicated = duplicated.refresh(changed: id, from: old, in: changed)
        #expect(!tookDuplicated)

        let renamed = screen.update(at: [2, 1]) { element in element.id = "hidden-twin" }
        #expect(renamed)
        var index = ScreenIndex(screen)
        #expect(
            screen.update(at: path) { element in
                element.label = label
                element.value = value
                element.isHidden = element.isHidden || hide
            })
        #expect(screen.element(id)?.label == label)
        let took = index.refresh(changed: id, from: old, in: screen)
        #expect(took == inPlace)
        if inPlace { Self.expectMatches(index, screen) }
    }

    /// Where a list's rows are stored: the same address before and after a change means it was made in place.
    static func storage(of rows: [AccessibilityElement]) -> UnsafeRawPointer? {
        rows.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    /// A screen of its own (a list of 50 rows in a contain group), sharing no storage with any other.
    static func list() -> [AccessibilityElement] {
        [
            AccessibilityElement(id: "title", label: "Feed", traits: .header),
            AccessibilityElement(
                id: "rows", container: .contain,
                children: (1...50).map { AccessibilityElement(id: "row-\($0)", label: "Row") }, containerType: .list),
        ]
    }

    /// The index's copy of the list shares the rows' storage with the screen: kept, it makes the screen copy all
    /// 50 rows to change one (and the refresh free the old ones), a walk of the list per change. Released first,
    /// the change is made in place, and the refreshed index answers as the tree walks do.
    @Test(arguments: [true, false])
    func aReleasedPathIsChangedInPlaceAndRefreshed(released: Bool) throws {
        var screen = Screen(name: "s", elements: Self.list())
        var index = ScreenIndex(screen)
        let path = try #require(index.path(of: "row-7"))
        let old = try #require(index.element("row-7"))
        let before = Self.storage(of: screen.elements[1].children)
        if released { index.release(path: path, in: screen) }
        let changed = screen.update(at: path) { element in element.label = "Row 7, new" }
        #expect(changed)
        let after = Self.storage(of: screen.elements[1].children)
        #expect((after == before) == released)
        let refreshed = index.refresh(changed: "row-7", from: old, in: screen)
        #expect(refreshed)
        Self.expectMatches(index, screen)
        #expect(index.element("rows")?.children[6].label == "Row 7, new")
    }

    /// In the engine: after the first change (the run's history keeps the screen it started with, so that one is a
    /// copy), each change to a row of the list leaves the list where it is.
    @Test func theEngineChangesARowOfAListInPlace() {
        let bench = Bench(elements: Self.list())
        bench.user(.focus("title"))
        bench.post(.setLabel("row-3", "Row 3, first"))
        let before = Self.storage(of: bench.simulation.screen.elements[1].children)
        for count in 1...5 {
            bench.post(.setLabel("row-3", TextTemplate.literal("Row 3, change \(count)")))
            #expect(Self.storage(of: bench.simulation.screen.elements[1].children) == before, "change \(count)")
        }
        #expect(bench.simulation.screen.element("row-3")?.label == "Row 3, change 5")
        bench.user(.swipeNext)
        #expect(bench.simulation.focusedID == "row-1")
    }

    @Test func aPathOutsideTheTreeFindsAndChangesNothing() {
        var screen = Self.screen
        #expect(screen.element(at: [3, 0, 9]) == nil)
        #expect(screen.element(at: [Int]()) == nil)
        let outside = screen.update(at: [42]) { element in element.label = "x" }
        let nowhere = screen.update(at: [Int]()) { element in element.label = "x" }
        #expect(!outside && !nowhere)
        #expect(screen == Self.screen)
        #expect(screen.element(at: [3, 0, 1])?.id == "row-2")
    }

    @Test func aSwipeSeesTheTreeAsChangedSinceTheLastOne() throws {
        let bench = Bench(elements: (1...4).map { AccessibilityElement(id: "row-\($0)", label: "Row \($0)") })
        bench.user(.focus("row-1"))
        bench.user(.swipeNext)
        #expect(bench.simulation.focusedID == "row-2")
        // Row 3 hidden after the index was built for the last swipe: the next swipe skips it.
        bench.post(.setHidden("row-3", true))
        bench.user(.swipeNext)
        #expect(bench.simulation.focusedID == "row-4")
        bench.post(.setHidden("row-3", false))
        bench.user(.swipePrevious)
        #expect(bench.simulation.focusedID == "row-3")
    }

    /// The writer as it was: one Unicode scalar at a time.
    static func reference(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output.append("\\\"")
            case "\\": output.append("\\\\")
            case "\n": output.append("\\n")
            case "\r": output.append("\\r")
            case "\t": output.append("\\t")
            case "\u{08}": output.append("\\b")
            case "\u{0C}": output.append("\\f")
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }

    @Test(arguments: [
        "", "plain words", "say \"hi\"", "back\\slash", "line\nbreak\r\n", "tab\tand\u{08}\u{0C}\u{01}\u{1F}",
        "\"\u{301}accent on a quote", "e\u{301}cole ☕️ 👩‍👩‍👧 \"", "\\\"\\", "ends with a quote\"",
    ])
    func jsonStringsAreTheBytesOfTheScalarWriter(text: String) {
        var output = ""
        JSONValue.writeString(text, to: &output)
        #expect(Array(output.utf8) == Array(Self.reference(text).utf8))
    }
}
