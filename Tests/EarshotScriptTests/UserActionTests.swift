import EarshotCore
import EarshotScript
import Testing

/// Return (`submit`, `on submit`), value changes (`on change`) and swipe up/down on sliders, pickers and
/// steppers (`on increment`/`on decrement`, then VoiceOver speaks the new value), on a real run.
@Suite struct UserActionTests {
    static let body = """
        title "adjust and submit"
        screen S
          slider volume "Volume" value "50%"
          stepper qty "Quantity" value "1"
          picker size "Size" value "Small"
          textField promo "Promo code"
          button apply "Apply"
        on increment volume:
          set volume value "60%"
        on decrement volume:
          set volume value "40%"
        on increment qty:
          set qty value "2"
        on change qty:
          announce "Quantity {value qty}"
        on change promo:
          set promo value "{value promo}!"
          announce "changed"
        on submit promo:
          announce "Code applied"
        on increment apply:
          announce "never: a button is not adjustable"
        at 0s focus volume
        at 2s swipe up
        at 3s swipe down 2 times every 1s
        at 6s focus qty
        at 7s swipe up
        at 9s focus promo
        at 10s type "ab"
        at 11s submit
        at 13s focus apply
        at 15s swipe up
        wait 2s
        """

    @Test(arguments: [
        (#"exactly 1 speech matching "^60%$""#, true),
        (#"exactly 1 speech matching "^40%$""#, true),
        (#"exactly 2 speech matching "^40%$""#, false),
        (#"exactly 1 cut focus read on volume by speech matching "^60%$""#, true),
        (#"exactly 1 announcement matching "^Quantity 2$""#, true),
        (#"no posted announcement matching "^Quantity""#, false),
        (#"exactly 2 posted announcements matching "^changed$""#, true),
        (#"exactly 1 posted announcement matching "Code applied" after 11s"#, true),
        (#"no posted announcement matching "Code applied" before 11s"#, true),
        (#"no posted announcement matching "never""#, true),
        (#"focus is on promo at 11s"#, true),
        // "changed" (the app's reaction to typing "a") cuts the echo of "a"; "b" is typed after that.
        (#"announcement matching "changed" starts after echo matching "^a$" ends"#, false),
        (#"echo matching "^b$" starts after echo matching "^a$" ends"#, true),
        (#"announcement matching "Code applied" starts after echo matching "^b$" ends"#, true),
    ])
    func adjustSubmitAndChangeRunTheAppsReactions(assertion: String, passes: Bool) throws {
        let result = try #require(try CheckTestSupport.verdict(assertion, in: Self.body))
        #expect(result.passed == passes, "\(assertion): \(result.evidence)")
    }

    @Test func theUserActionsAreOnTheTimelineAndTheValuesChange() throws {
        let run = try CheckTestSupport.run(Self.body)
        let actions = run.timeline.events.compactMap { event -> UserAction? in
            if case .user(let action) = event.kind { return action }
            return nil
        }
        #expect(actions.filter { $0 == .adjust(.up) }.count == 3)
        #expect(actions.filter { $0 == .adjust(.down) }.count == 2)
        #expect(actions.contains(.submit))
        let end = try #require(run.timeline.screen(at: run.timeline.end))
        #expect(end.element("volume")?.value == "40%")
        #expect(end.element("qty")?.value == "2")
        #expect(end.element("promo")?.value == "a!b!")
        #expect(end.element("size")?.traits.contains(.adjustable) == true)
    }

    @Test(arguments: [
        ("at 20s swipe sideways", "unknown swipe direction 'sideways'"),
        ("on pinch volume:\n  announce \"x\"", "unknown trigger 'pinch'"),
        ("at 20s submit now", "unexpected 'now'"),
    ])
    func malformedActionsAreRejected(line: String, message: String) {
        let errors = CheckTestSupport.parseErrors(Self.body + "\n" + line + "\n")
        #expect(errors.contains { $0.hasPrefix(message) }, "\(errors)")
    }
}
