import EarshotCore

/// Something that can stand on a ``TestScreen``: a ``Button``, a ``StaticText``, a ``Container`` or a
/// ``TestElement`` made by hand.
///
/// Conforming types get the SwiftUI-style modifiers (`accessibilityHint(_:)`, `accessibilityHidden(_:)`,
/// `accessibilityAddTraits(_:)` …), each of which returns a ``TestElement``.
public protocol TestElementConvertible {
    /// The element this stands for.
    var testElement: TestElement { get }
}

/// One accessibility element of a ``TestScreen``: what VoiceOver can focus and read.
///
/// Usually made by a factory that names its role (``Button``, ``SearchField``, ``Toggle`` …) and adjusted with
/// modifiers named after SwiftUI's:
///
/// ```swift
/// StaticText("timer", "Stopwatch", value: "00:00:00")
///     .accessibilityAddTraits(.updatesFrequently)
/// Button("cart", label: "Cart", value: "0 items")
///     .accessibilityHint("Opens your cart")
/// ```
///
/// The `id` is how the test names the element (`session.focus("cart")`, `.value(of: "cart", to: …)`); it plays
/// the part of an `accessibilityIdentifier` and is never spoken.
public struct TestElement: Hashable, Sendable, TestElementConvertible {
    /// The engine's element.
    public var element: AccessibilityElement

    /// Creates an element from its parts; prefer the role factories (``Button``, ``StaticText`` …).
    ///
    /// - Parameters:
    ///   - id: The identifier tests use; unique on the screen, never spoken.
    ///   - label: `accessibilityLabel`.
    ///   - value: `accessibilityValue`.
    ///   - traits: `accessibilityTraits`, for example `[.button, .selected]`.
    ///   - hint: `accessibilityHint`, spoken after the hint delay when the read ends uninterrupted.
    public init(_ id: String, label: String = "", value: String = "", traits: Traits = [], hint: String = "") {
        element = AccessibilityElement(id: id, label: label, value: value, traits: traits, hint: hint)
    }

    /// Wraps an engine element as it is.
    public init(_ element: AccessibilityElement) {
        self.element = element
    }

    /// The element itself.
    public var testElement: TestElement { self }

    /// The identifier tests use.
    public var id: String { element.id }

    /// What VoiceOver says when focus lands here, without the hint: `Cart, 0 items, button`.
    public var spokenDescription: String { element.spokenDescription() }
}

extension TestElementConvertible {
    /// Replaces the element's `accessibilityLabel`.
    public func accessibilityLabel(_ label: String) -> TestElement {
        modified { $0.label = label }
    }

    /// Replaces the element's `accessibilityValue`.
    public func accessibilityValue(_ value: String) -> TestElement {
        modified { $0.value = value }
    }

    /// Sets the element's `accessibilityHint`, spoken after the hint delay when its read ends uninterrupted.
    public func accessibilityHint(_ hint: String) -> TestElement {
        modified { $0.hint = hint }
    }

    /// Hides the element and everything inside it from VoiceOver (`accessibilityHidden(true)`).
    public func accessibilityHidden(_ hidden: Bool = true) -> TestElement {
        modified { $0.isHidden = hidden }
    }

    /// Adds traits, for example `.updatesFrequently` on a stopwatch or `.selected` on a tab.
    public func accessibilityAddTraits(_ traits: Traits) -> TestElement {
        modified { $0.traits.formUnion(traits) }
    }

    /// Removes traits.
    public func accessibilityRemoveTraits(_ traits: Traits) -> TestElement {
        modified { $0.traits.subtract(traits) }
    }

    /// Marks the element as a loading placeholder (a skeleton row). VoiceOver treats it like any other element.
    public func loadingPlaceholder(_ isPlaceholder: Bool = true) -> TestElement {
        modified { $0.isPlaceholder = isPlaceholder }
    }

    private func modified(_ change: (inout AccessibilityElement) -> Void) -> TestElement {
        var copy = testElement
        change(&copy.element)
        return copy
    }
}

/// Builds a list of ``TestElement``s from a closure, like a SwiftUI view body: one element per line, with
/// `if`, `if let`, `switch` and `for` allowed.
@resultBuilder
public enum ScreenBuilder {
    /// One element.
    public static func buildExpression(_ element: some TestElementConvertible) -> [TestElement] {
        [element.testElement]
    }

    /// Elements made elsewhere.
    public static func buildExpression(_ elements: [TestElement]) -> [TestElement] { elements }

    /// Lines in order.
    public static func buildBlock(_ parts: [TestElement]...) -> [TestElement] { parts.flatMap { $0 } }

    /// An `if` without `else`.
    public static func buildOptional(_ part: [TestElement]?) -> [TestElement] { part ?? [] }

    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first part: [TestElement]) -> [TestElement] { part }

    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither(second part: [TestElement]) -> [TestElement] { part }

    /// A `for` loop.
    public static func buildArray(_ parts: [[TestElement]]) -> [TestElement] { parts.flatMap { $0 } }
}
