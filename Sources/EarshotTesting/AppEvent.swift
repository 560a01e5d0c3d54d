import EarshotCore

/// Something the app does, in UIKit/SwiftUI terms: post an accessibility notification, change an element, play
/// a sound, or wait (a delay, a debounce, a timer) and then do more.
///
/// Post one now with ``ScreenReaderSession/post(_:)``, or attach them to a trigger with
/// ``TestScreen/onType(in:_:)``, ``TestScreen/onActivate(_:_:)`` and ``TestScreen/onFocus(_:_:)``:
///
/// ```swift
/// try session.post(.announcement("Added to cart. 3 items."))
/// try session.post(.value(of: "cart", to: "3 items"), .layoutChanged)
///
/// screen.onType(in: "query") {
///     .debounce(.milliseconds(600)) {            // the `.task(id: query) { try await Task.sleep … }` pattern
///         .announcement("\(resultCounts, keyedBy: "query") results")
///     }
/// }
/// ```
public struct AppEvent: Hashable, Sendable {
    /// The engine's action.
    public var action: AppAction
    /// Lookup tables the action's texts read.
    var tables: [String: [String: String]]

    /// Wraps an engine action as it is.
    public init(_ action: AppAction) {
        self.init(action, tables: [:])
    }

    init(_ action: AppAction, tables: [String: [String: String]]) {
        self.action = action
        self.tables = tables
    }

    // MARK: Notifications

    /// `UIAccessibility.post(notification: .announcement, argument:)`.
    ///
    /// - Parameters:
    ///   - text: What VoiceOver says.
    ///   - priority: `.default` cuts what is speaking (except a `.high` announcement); `.low` waits its turn;
    ///     `.high` cuts and cannot itself be cut.
    ///   - queued: The `accessibilitySpeechQueueAnnouncement` attribute: wait for current speech instead of
    ///     cutting it.
    public static func announcement(_ text: AppText, priority: Priority = .default, queued: Bool = false) -> AppEvent {
        AppEvent(.announce(text.template, priority: priority, queued: queued), tables: text.tables)
    }

    /// `.screenChanged` with `nil`: the screen-change earcon, the queue cleared, focus on the first element, read.
    ///
    /// Computed rather than stored (here and in ``layoutChanged``): a stored global keeps `AppAction`'s
    /// indirect-enum box only through a pointer with Swift's enum tag bits set, which LeakSanitizer does
    /// not recognise, so `make sanitize` reported the box as leaked.
    public static var screenChanged: AppEvent { AppEvent(.screenChanged(.none)) }

    /// `.screenChanged` with an element: focus moves to it and it is read.
    public static func screenChanged(focusing id: String) -> AppEvent { AppEvent(.screenChanged(.element(id))) }

    /// `.screenChanged` with a string: focus moves to the first element and the string is spoken instead.
    public static func screenChanged(announcing text: AppText) -> AppEvent {
        AppEvent(.screenChanged(.text(text.template)), tables: text.tables)
    }

    /// `.layoutChanged` with `nil`: VoiceOver says nothing and focus stays.
    public static var layoutChanged: AppEvent { AppEvent(.layoutChanged(.none)) }

    /// `.layoutChanged` with an element: focus moves to it and it is read.
    public static func layoutChanged(focusing id: String) -> AppEvent { AppEvent(.layoutChanged(.element(id))) }

    /// `.layoutChanged` with a string: the string is spoken and focus stays.
    public static func layoutChanged(announcing text: AppText) -> AppEvent {
        AppEvent(.layoutChanged(.text(text.template)), tables: text.tables)
    }

    /// `.pageScrolled` with its string ("Page 2 of 5").
    public static func pageScrolled(_ text: AppText) -> AppEvent {
        AppEvent(.pageScrolled(text.template), tables: text.tables)
    }

    /// Replaces the whole screen with another ``TestScreen`` given to the session, then posts `.screenChanged`.
    public static func showScreen(_ name: String) -> AppEvent { AppEvent(.showScreen(name)) }

    // MARK: Element changes

    /// Sets an element's `accessibilityValue` (a counter, a stopwatch, a text field's text).
    ///
    /// VoiceOver says nothing about the change unless the element is focused and `.updatesFrequently`.
    public static func value(of id: String, to text: AppText) -> AppEvent {
        AppEvent(.setValue(id, text.template), tables: text.tables)
    }

    /// Sets an element's `accessibilityLabel`.
    public static func label(of id: String, to text: AppText) -> AppEvent {
        AppEvent(.setLabel(id, text.template), tables: text.tables)
    }

    /// Hides (or shows again) an element and everything inside it. Hiding the focused element moves focus.
    public static func hidden(_ id: String, _ isHidden: Bool = true) -> AppEvent { AppEvent(.setHidden(id, isHidden)) }

    /// Adds traits to an element, for example `.selected`.
    public static func addTraits(_ traits: Traits, to id: String) -> AppEvent {
        AppEvent(.setTraits(id, adding: traits, removing: []))
    }

    /// Removes traits from an element.
    public static func removeTraits(_ traits: Traits, from id: String) -> AppEvent {
        AppEvent(.setTraits(id, adding: [], removing: traits))
    }

    /// Turns a switch on or off.
    public static func toggle(_ id: String, isOn: Bool) -> AppEvent { AppEvent(.setSwitch(id, isOn ? .on : .off)) }

    // MARK: Sound and screen

    /// Plays an app sound (a success chime) lasting `duration`.
    public static func playSound(_ name: String, duration: Duration) -> AppEvent {
        AppEvent(.playSound(name, duration: TimeSpan(duration)))
    }

    /// Shows text on screen without telling VoiceOver (a banner a sighted user sees).
    public static func showText(_ text: AppText) -> AppEvent { AppEvent(.showText(text.template), tables: text.tables) }

    // MARK: Time

    /// Debounce: runs `events` once `delay` has passed without another trigger of the same debounce.
    ///
    /// Each new trigger cancels the pending run, like SwiftUI's `.task(id: query) { try await Task.sleep(for:) … }`.
    /// Debounces with the same `id` share one timer; without an `id`, debounces of the same events share one.
    public static func debounce(
        _ delay: Duration, id: String? = nil, @AppEventBuilder _ events: () -> [AppEvent]
    ) -> AppEvent {
        let inner = events()
        let key = id ?? "debounce " + inner.map { String(describing: $0.action) }.joined(separator: "; ")
        return AppEvent(
            .debounce(key: key, delay: TimeSpan(delay), actions: inner.map(\.action)), tables: merged(inner))
    }

    /// Runs `events` after `delay` (`DispatchQueue.main.asyncAfter`, a network response).
    public static func after(_ delay: Duration, @AppEventBuilder _ events: () -> [AppEvent]) -> AppEvent {
        let inner = events()
        return AppEvent(.after(TimeSpan(delay), inner.map(\.action)), tables: merged(inner))
    }

    /// Runs `events` every `period`, `times` times, the first one period from now (a `Timer.publish`).
    ///
    /// Inside, `"\(.clock)"` reads the time since the timer started and `"\(.iteration)"` the run's number.
    public static func every(_ period: Duration, times: Int, @AppEventBuilder _ events: () -> [AppEvent]) -> AppEvent {
        let inner = events()
        return AppEvent(
            .repeating(every: TimeSpan(period), count: times, actions: inner.map(\.action)), tables: merged(inner))
    }

    static func merged(_ events: [AppEvent]) -> [String: [String: String]] {
        events.reduce(into: [:]) { result, event in result.merge(event.tables) { first, _ in first } }
    }
}

/// Builds a list of ``AppEvent``s from a closure, with `if`, `switch` and `for` allowed.
///
/// A single event can start with a dot. Swift reads a line that starts with a dot as a continuation of the line
/// before it, so for several events write them as an array, or spell out `AppEvent.` on each line:
///
/// ```swift
/// .onActivate("add") {
///     [.value(of: "cart", to: "3 items"), .announcement("Added to cart. 3 items.")]
/// }
/// .onActivate("remove") {
///     AppEvent.value(of: "cart", to: "2 items")
///     AppEvent.announcement("Removed from cart")
/// }
/// ```
@resultBuilder
public enum AppEventBuilder {
    /// One event.
    public static func buildExpression(_ event: AppEvent) -> [AppEvent] { [event] }

    /// Several events, in order: `[.value(of: "cart", to: "3 items"), .announcement("Added")]`.
    public static func buildExpression(_ events: [AppEvent]) -> [AppEvent] { events }

    /// Lines in order.
    public static func buildBlock(_ parts: [AppEvent]...) -> [AppEvent] { parts.flatMap { $0 } }

    /// An `if` without `else`.
    public static func buildOptional(_ part: [AppEvent]?) -> [AppEvent] { part ?? [] }

    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first part: [AppEvent]) -> [AppEvent] { part }

    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither(second part: [AppEvent]) -> [AppEvent] { part }

    /// A `for` loop.
    public static func buildArray(_ parts: [[AppEvent]]) -> [AppEvent] { parts.flatMap { $0 } }
}
