import EarshotCore

// Role factories: one small type per kind of control, named the way UIKit and SwiftUI name them, each with the
// traits VoiceOver speaks for that role. They only build a `TestElement`; the modifiers in `TestElement.swift`
// adjust it.

/// A button: `Button("cart", label: "Cart", value: "0 items")` reads "Cart, 0 items, button".
public struct Button: TestElementConvertible {
    /// The element built.
    public let testElement: TestElement

    /// Creates a button.
    public init(_ id: String, label: String, value: String = "", hint: String = "") {
        testElement = TestElement(id, label: label, value: value, traits: .button, hint: hint)
    }
}

/// A back button: `BackButton("back", label: "Orders")` reads "Orders, back button".
public struct BackButton: TestElementConvertible {
    /// The element built.
    public let testElement: TestElement

    /// Creates a back button.
    public init(_ id: String, label: String, hint: String = "") {
        testElement = TestElement(id, label: label, traits: .backButton, hint: hint)
    }
}

/// A link: `Link("terms", label: "Terms of use")` reads "Terms of use, link".
public struct Link: TestElementConvertible {
    /// The element built.
    public let testElement: TestElement

    /// Creates a link.
    public init(_ id: String, label: String, hint: String = "") {
        testElement = TestElement(id, label: label, traits: .link, hint: hint)
    }
}

/// Static text (a `UILabel`, SwiftUI `Text`): `StaticText("total", "Total", value: "$12")` reads "Total, $12".
///
/// The text may be empty at first and filled in later with `.label(of:to:)` or `.value(of:to:)`; an element with
/// no text is still a stop in the reading order, as a `UILabel` with the static-text trait is.
public struct StaticText: TestElementConvertible {
    /// The element built.
    public let testElement: TestElement

    /// Creates static text.
    public init(_ id: String, _ text: String = "", value: String = "", hint: String = "") {
        testElement = TestElement(id, label: text, value: value, traits: .staticText, hint: hint)
    }
}

/// A heading: `Header("title", "Order 1042")` reads "Order 1042, heading".
public struct Header: TestElementConvertible {
    /// The element built.
    public let testElement: TestElement

    /// Creates a heading.
    public init(_ id: String, _ text: String) {
        testElement = TestElement(id, label: text, traits: .header)
    }
}

/// An image with an accessibility label: `Image("logo", label: "Earshot")` reads "Earshot, image".
public struct Image: TestElementConvertible {
    /// The element built.
    public let testElement: TestElement

    /// Creates an image.
    public init(_ id: String, label: String) {
        testElement = TestElement(id, label: label, traits: .image)
    }
}

/// A search field (`UISearchBar`, SwiftUI `.searchable`): `SearchField("query", label: "Search products")` reads
/// "Search products, search field". Typed characters are appended to its value.
public struct SearchField: TestElementConvertible {
    /// The element built.
    public let testElement: TestElement

    /// Creates a search field holding `text`.
    public init(_ id: String, label: String, text: String = "", hint: String = "") {
        testElement = TestElement(id, label: label, value: text, traits: .searchField, hint: hint)
    }
}

/// A text field (`UITextField`, SwiftUI `TextField`): reads "Name, text field". Typed characters are appended
/// to its value.
public struct TextField: TestElementConvertible {
    /// The element built.
    public let testElement: TestElement

    /// Creates a text field holding `text`; `isSecure` makes it a `SecureField` ("secure text field").
    public init(_ id: String, label: String, text: String = "", isSecure: Bool = false, hint: String = "") {
        testElement = TestElement(
            id, label: label, value: text, traits: isSecure ? .secureTextField : .textField, hint: hint)
    }
}

/// A switch (`UISwitch`, SwiftUI `Toggle`): `Toggle("captions", label: "Captions", isOn: true)` reads
/// "Captions, switch button, on". Activating it flips it and VoiceOver says the new state.
public struct Toggle: TestElementConvertible {
    /// The element built.
    public let testElement: TestElement

    /// Creates a switch.
    public init(_ id: String, label: String, isOn: Bool, hint: String = "") {
        var element = TestElement(id, label: label, hint: hint)
        element.element.switchState = isOn ? .on : .off
        testElement = element
    }
}

/// A tab bar item: `Tab("home", label: "Home", isSelected: true)` reads "Selected, Home, tab, 1 of 3".
public struct Tab: TestElementConvertible {
    /// The element built.
    public let testElement: TestElement

    /// Creates a tab.
    public init(_ id: String, label: String, isSelected: Bool = false) {
        testElement = TestElement(id, label: label, traits: isSelected ? [.tab, .selected] : .tab)
    }
}

/// An adjustable control (a slider, a stepper): `Adjustable("volume", label: "Volume", value: "50%")` reads
/// "Volume, 50%, adjustable".
public struct Adjustable: TestElementConvertible {
    /// The element built.
    public let testElement: TestElement

    /// Creates an adjustable element.
    public init(_ id: String, label: String, value: String, hint: String = "") {
        testElement = TestElement(id, label: label, value: value, traits: .adjustable, hint: hint)
    }
}

/// A group of elements, as SwiftUI's `.accessibilityElement(children:)` makes one.
///
/// ```swift
/// Container("card", children: .combine) {      // one stop: "Order 1042, Shipped"
///     StaticText("title", "Order 1042")
///     StaticText("status", "Shipped")
/// }
/// Container("skeleton") {                       // children are separate stops…
///     for row in 1...8 { StaticText("row\(row)", "Loading") }
/// }
/// .accessibilityHidden(true)                    // …unless the whole subtree is hidden
/// ```
public struct Container: TestElementConvertible {
    /// The element built.
    public let testElement: TestElement

    /// Creates a container.
    ///
    /// - Parameters:
    ///   - id: The identifier tests use.
    ///   - children: `.contain` (the default) exposes each child as its own stop; `.combine` makes the group one
    ///     stop that reads its label, then each visible child's phrase, joined by commas.
    ///   - label: An optional label read first by a combining container.
    ///   - content: The children, in reading order.
    public init(
        _ id: String, children: ContainerBehavior = .contain, label: String = "",
        @ScreenBuilder _ content: () -> [TestElement]
    ) {
        let element = AccessibilityElement(
            id: id, label: label, container: children, children: content().map(\.element))
        testElement = TestElement(element)
    }
}
