import EarshotCore

/// A screen of your app as VoiceOver sees it: its elements in reading order and how the app reacts to the user.
///
/// Write it the way you write the accessibility of the real screen, then hand it to a ``ScreenReaderSession``:
///
/// ```swift
/// let resultCounts = ["j": "42", "ja": "17", "jas": "9", "jasm": "4", "jasmi": "3", "jasmin": "3", "jasmine": "2"]
/// let screen = TestScreen {
///     SearchField("query", label: "Search products")
///     StaticText("results")
///     Button("cart", label: "Cart", value: "0 items")
///         .accessibilityHint("Opens your cart")
/// }
/// .onType(in: "query") {
///     .debounce(.milliseconds(600)) {
///         .announcement("\(resultCounts, keyedBy: "query") results")
///     }
/// }
/// .onActivate("cart") {
///     .screenChanged
/// }
/// ```
///
/// Reactions run on the app's next run-loop turn after the input (10 ms later with the default VoiceOver
/// settings), which is why an announcement posted on every keystroke cuts that keystroke's echo.
public struct TestScreen: Hashable, Sendable {
    /// The screen's name, used by ``AppEvent/showScreen(_:)``.
    public var name: String
    /// Top-level elements in reading order.
    public var elements: [TestElement]
    /// What the app does on each trigger, in the order they were added.
    public var reactions: [AppReaction]
    /// Lookup tables the reactions' texts read.
    var tables: [String: [String: String]]

    /// Creates a screen from its elements, top to bottom.
    public init(_ name: String = "main", @ScreenBuilder _ content: () -> [TestElement]) {
        self.name = name
        self.elements = content()
        self.reactions = []
        self.tables = [:]
    }

    /// The engine's screen.
    public var screen: Screen { Screen(name: name, elements: elements.map(\.element)) }

    /// Runs `events` whenever a character is typed into the text field `id` (`textDidChange`, SwiftUI's
    /// `.onChange(of: query)`).
    public func onType(in id: String, @AppEventBuilder _ events: () -> [AppEvent]) -> TestScreen {
        adding(.typed(in: id), events())
    }

    /// Runs `events` whenever the element `id` is activated (a double tap: the button's action).
    public func onActivate(_ id: String, @AppEventBuilder _ events: () -> [AppEvent]) -> TestScreen {
        adding(.activated(id), events())
    }

    /// Runs `events` whenever VoiceOver focus lands on the element `id` (`accessibilityElementDidBecomeFocused`).
    public func onFocus(_ id: String, @AppEventBuilder _ events: () -> [AppEvent]) -> TestScreen {
        adding(.focused(id), events())
    }

    private func adding(_ trigger: AppTrigger, _ events: [AppEvent]) -> TestScreen {
        var copy = self
        copy.reactions.append(AppReaction(trigger: trigger, actions: events.map(\.action)))
        copy.tables.merge(AppEvent.merged(events)) { first, _ in first }
        return copy
    }
}
