import EarshotCore
import Testing

@testable import EarshotScript

/// The constructs of the scenario format parse to the AST the engine lowers.
@Suite struct ScenarioParserTests {
    static let header = """
        title "T"
        pattern announcement-spam
        variant before

        """

    static func parse(_ body: String) throws -> ScenarioDocument {
        try ScenarioParser.parse(source: header + body, path: "t.earshot")
    }

    @Test(arguments: [
        ("150ms", Int64(150_000_000)), ("1.2s", 1_200_000_000), ("2m", 120_000_000_000), ("0s", 0),
        ("0.5s", 500_000_000), ("1.25ms", 1_250_000), ("3s", 3_000_000_000), ("1.5m", 90_000_000_000),
    ])
    func durationsConvertExactly(_ text: String, _ nanoseconds: Int64) {
        #expect(DurationLiteral.span(text) == TimeSpan(nanoseconds: nanoseconds))
    }

    @Test(arguments: ["", "ms", "1.2", "12x", "-1s", "1..2s", "1.s", ".5s", "1e3ms", "0.0000000001s"])
    func malformedDurationsAreRejected(_ text: String) {
        #expect(DurationLiteral.span(text) == nil)
    }

    @Test func relativeTimingFollowsThePreviousTimedLine() throws {
        let document = try Self.parse(
            """
            screen S
              button a "A"
            at 1s focus a
            +150ms activate
            +150ms activate a
            wait 2s
            activate
            at 5s swipe next 3 times every 400ms
            """)
        #expect(
            document.timeline.map(\.time) == [
                .milliseconds(1000), .milliseconds(1150), .milliseconds(1300), .milliseconds(3300), .milliseconds(5000),
            ])
        #expect(document.endTime == .milliseconds(5800))
        guard case .user(let swipe) = document.timeline[4].action,
            case .swipe(.next, let times, let interval) = swipe.kind
        else {
            Issue.record("expected a swipe")
            return
        }
        #expect(times == 3 && interval == .milliseconds(400))
    }

    @Test func theSketchParses() throws {
        let document = try Self.parse(
            """
            says-different "one count"
            network 3g
            poll 1s
            hint-delay 400ms
            hints on
            typing-feedback characters
            focus-read-preempts-announcements off
            screen Search
              searchField query   "Search products"
              text        results ""
              button      cart    "Cart"  value "0 items"  hint "Opens the cart"  trait selected
            data results-for query: j=42 ja=17 "jas mine"=2
            on type in query:
              set results label "{results-for query} results"
              debounce 600ms:
                announce "{results-for} results" priority high queued
            at 0s focus query
            at 0.5s type "jasmine" every 150ms
            wait 3s
            check "nothing announced while typing":
              no announcement while typing
              exactly 1 announcement matching "\\d+ results" within 1s after typing stops
            """)
        #expect(document.header.settings.network == "3g")
        #expect(document.header.settings.pollInterval == .seconds(1))
        #expect(document.header.settings.hintDelay == .milliseconds(400))
        #expect(document.header.settings.hints == true)
        #expect(document.header.settings.typingFeedback == .characters)
        #expect(document.header.settings.focusReadPreemptsAnnouncements == false)
        let cart = try #require(document.screens.first?.elements.last)
        #expect(cart.id == "cart" && cart.value == "0 items" && cart.hint == "Opens the cart")
        #expect(cart.allTraits == [.button, .selected])
        #expect(cart.location == SourceLocation(path: "t.earshot", line: 14, column: 3))
        #expect(document.dataTable(named: "results-for")?.value(forKey: "jas mine") == "2")
        let reaction = try #require(document.reactions.first)
        #expect(reaction.trigger == .typeIn(element: "query"))
        guard case .debounce(let wait, let block) = reaction.actions.last?.kind,
            case .announce(let text, .high, true) = block.first?.kind
        else {
            Issue.record("expected a debounce holding a high, queued announcement")
            return
        }
        #expect(wait == .milliseconds(600))
        #expect(text.parts == [.lookup(table: "results-for", keyElement: "query"), .literal(" results")])
        #expect(document.endTime == .milliseconds(3500))
        guard case .count(let count) = document.checks.first?.assertions.last?.kind else {
            Issue.record("expected a count")
            return
        }
        #expect(count.quantifier == .exactly(1) && count.subject == .announcement)
        #expect(count.matching == "\\d+ results")
        #expect(count.window == .withinAfterTypingStops(.seconds(1)))
    }

    @Test func repeatsExpandWithNumberedIDsAndGroupsNest() throws {
        let document = try Self.parse(
            """
            screen S
              group skeleton "" contain hidden
                repeat 3:
                  text order "Order 0000" placeholder
              toggle captions "Captions" on
              video player "Video" media clip
            media clip duration 4s:
              narration at 0.5s "Hello"
              caption at 0.5s until 2s "Hello"
            at 0s play media clip
            check "c":
              captions appear while clip plays
            """)
        let skeleton = try #require(document.screens.first?.elements.first)
        #expect(skeleton.container == .contain && skeleton.hidden)
        #expect(skeleton.children.map(\.id) == ["order-1", "order-2", "order-3"])
        #expect(skeleton.children.allSatisfy { $0.placeholder })
        #expect(document.screens.first?.elements[1].switchOn == true)
        #expect(document.media(named: "clip")?.captions.first?.until == .seconds(2))
    }

    @Test func repetitionsAndClockTemplates() throws {
        let document = try Self.parse(
            """
            screen S
              text stopwatch "00:00:00"
            at 1s every 1s for 60s set stopwatch label "{clock} ({count}, {countdown 2m})"
            """)
        let event = try #require(document.timeline.first)
        #expect(event.time == .seconds(1))
        #expect(event.repetition == ScenarioRepetition(interval: .seconds(1), count: 60))
        #expect(document.endTime == .seconds(61))
        guard case .app(let action) = event.action, case .set("stopwatch", .label(let template)) = action.kind else {
            Issue.record("expected set label")
            return
        }
        #expect(
            template.parts == [
                .clock, .literal(" ("), .count, .literal(", "), .countdown(from: .seconds(120)), .literal(")"),
            ])
    }

    @Test func loadsCarryPerNetworkDelays() throws {
        let document = try Self.parse(
            """
            screen S
              progress loading "Loading orders"
            at 0s load orders after 1s on 3G 6s on wifi 500ms:
              set loading hidden true
              layoutChanged nil
            check "c":
              focus does not jump when orders loads
              focus stays on loading when orders loads
            """)
        guard case .app(let action) = document.timeline.first?.action, case .load(let load) = action.kind else {
            Issue.record("expected a load")
            return
        }
        #expect(load.delay(on: "3g") == .seconds(6))
        #expect(load.delay(on: "wifi") == .milliseconds(500))
        #expect(load.delay(on: nil) == .seconds(1))
        #expect(load.actions.count == 2)
        if case .layoutChanged(.none) = load.actions[1].kind {} else { Issue.record("expected layoutChanged nil") }
    }

    @Test(arguments: [
        ("no announcement while typing", "count"),
        ("silent between 1s and 2s", "count"),
        ("scan never stops on hidden elements", "count"),
        ("no scan stops on placeholders while orders loads", "count"),
        ("at least 2 scan stops on back after 1s", "count"),
        ("no speech between 3s and 50s unless matching \"on the way\"", "count"),
        ("element back reads \"Back, button\" when focused", "reads"),
        ("element after back reads matching \"^Read\"", "reads"),
        ("element back stays visible until focused on back", "staysVisible"),
        ("heard matching \"\\\\d\" at least every 1s while focused on back", "heardEvery"),
        ("scan reaches back while orders loads", "reaches"),
        ("swipe reaches back after announcement matching \"sent\"", "reaches"),
        ("text visible matching \"80 °C\" before 10s", "textVisible"),
        ("screens S T sound different", "screens"),
        ("focus does not jump when orders loads", "focus"),
        ("focus is on back at 2s", "focusAt"),
        ("hint on back starts within 1s after focus read on back ends", "startsAfter"),
        ("announcement matching \"Saved\" waits at most 1s", "waits"),
        ("exactly 1 posted announcement matching \"Saved\" after 1s", "count"),
    ])
    func checkVocabularyParses(_ line: String, _ form: String) throws {
        let document = try Self.parse(
            """
            screen S
              button back "Back"
            screen T
              header title "T"
            at 0s load orders after 1s:
              set back label "Back"
            check "c":
              \(line)
            """)
        let assertion = try #require(document.checks.first?.assertions.first)
        #expect(assertion.text == line)
        let parsed: String =
            switch assertion.kind {
            case .count: "count"
            case .reads: "reads"
            case .staysVisible: "staysVisible"
            case .heardEvery: "heardEvery"
            case .reaches: "reaches"
            case .textVisible: "textVisible"
            case .screensSoundDifferent: "screens"
            case .focusStays: "focus"
            case .focusAt: "focusAt"
            case .startsAfter: "startsAfter"
            case .waits: "waits"
            }
        #expect(parsed == form)
    }
}
