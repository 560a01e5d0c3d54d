/// Return (submit), swipe up/down on adjustable elements, and value changes: the triggers of `on submit`,
/// `on increment`/`on decrement` and `on change`.
extension Simulation {
    /// Return in the focused element: the app's `on submit` reaction runs (a text field's `.onSubmit`).
    func submit() {
        guard let id = focusedID, screenIndex.isExposed(id) else { return }
        react(to: .submitted(id))
    }

    /// Swipe up or down on the focused element: when it is adjustable, the app's `on increment`/`on
    /// decrement` reaction runs (`accessibilityIncrement`/`Decrement`), and VoiceOver then speaks the new
    /// value (V11's value echo). A value that did not change is not spoken (the end of the range). On an
    /// element that is not adjustable nothing happens.
    func adjust(_ direction: AdjustDirection) {
        guard let id = focusedID, let element = screenIndex.element(id), element.traits.contains(.adjustable) else {
            return
        }
        let before = element.value
        react(to: .adjusted(id, direction))
        // Scheduled after the reaction, at the same instant: VoiceOver reads once the app has answered.
        scheduler.schedule(after: profile.voiceOver.appReactionDelay) { [unowned self] in
            guard focusedID == id, let after = screenIndex.element(id), after.value != before else { return }
            speak(
                after.value, kind: .valueEcho, request: .valueEcho, elementID: id,
                cause: "swipe \(direction.rawValue) on \(id)")
        }
    }

    /// The element's value changed: the app's `on change` reaction runs, unless that reaction made the change.
    func valueChanged(_ id: String) {
        guard !reactingToChange.contains(id) else { return }
        react(to: .changed(id))
    }
}
