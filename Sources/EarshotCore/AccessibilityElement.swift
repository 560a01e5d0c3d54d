/// Accessibility traits, as UIKit and SwiftUI name them.
public struct Traits: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let button = Traits(rawValue: 1 << 0)
    public static let header = Traits(rawValue: 1 << 1)
    public static let link = Traits(rawValue: 1 << 2)
    public static let searchField = Traits(rawValue: 1 << 3)
    public static let textField = Traits(rawValue: 1 << 4)
    public static let staticText = Traits(rawValue: 1 << 5)
    public static let image = Traits(rawValue: 1 << 6)
    public static let adjustable = Traits(rawValue: 1 << 7)
    public static let tab = Traits(rawValue: 1 << 8)
    public static let selected = Traits(rawValue: 1 << 9)
    public static let notEnabled = Traits(rawValue: 1 << 10)
    public static let updatesFrequently = Traits(rawValue: 1 << 11)
    public static let backButton = Traits(rawValue: 1 << 12)
    public static let secureTextField = Traits(rawValue: 1 << 13)
    public static let playsSound = Traits(rawValue: 1 << 14)
    public static let startsMediaSession = Traits(rawValue: 1 << 15)

    /// Every trait with the word a script uses for it, in a stable order.
    public static let named: [(name: String, trait: Traits)] = [
        ("button", .button), ("header", .header), ("link", .link), ("searchField", .searchField),
        ("textField", .textField), ("staticText", .staticText), ("image", .image), ("adjustable", .adjustable),
        ("tab", .tab), ("selected", .selected), ("notEnabled", .notEnabled),
        ("updatesFrequently", .updatesFrequently), ("backButton", .backButton),
        ("secureTextField", .secureTextField), ("playsSound", .playsSound),
        ("startsMediaSession", .startsMediaSession),
    ]

    /// True when the element takes typed text.
    public var isTextEntry: Bool { !intersection([.searchField, .textField, .secureTextField]).isEmpty }
}

/// The on/off state of a switch (UISwitch, SwiftUI `Toggle`).
public enum SwitchState: String, Hashable, Sendable {
    case on, off, mixed
}

/// How a container exposes its children (SwiftUI `accessibilityElement(children:)`).
public enum ContainerBehavior: String, Hashable, Sendable {
    /// The container is one element whose label is its children's text joined.
    case combine
    /// The container is not an element; its children are, in order.
    case contain
}

/// What kind of container an element is, when VoiceOver tells the user (`accessibilityContainerType`).
public enum ContainerType: String, Hashable, Sendable, CaseIterable {
    /// A list: its first element adds "list start", its last "list end".
    case list
    /// A landmark: its first element adds "landmark", its last "end".
    case landmark
}

/// One node of the accessibility tree.
public struct AccessibilityElement: Hashable, Sendable {
    /// The script's identifier, unique on its screen.
    public var id: String
    /// `accessibilityLabel`.
    public var label: String
    /// `accessibilityValue`.
    public var value: String
    /// `accessibilityTraits`.
    public var traits: Traits
    /// The state of a switch, when the element is one.
    public var switchState: SwitchState?
    /// `accessibilityHint`, spoken separately after the hint delay.
    public var hint: String
    /// `accessibilityHidden` / `accessibilityElementsHidden`: hides the whole subtree.
    public var isHidden: Bool
    /// Container behavior, when the element groups children.
    public var container: ContainerBehavior?
    /// Child elements, in reading order.
    public var children: [AccessibilityElement]
    /// Marks a loading placeholder (a skeleton row). It changes nothing VoiceOver does; it lets the
    /// `placeholder-exposed` finding see placeholders that are not hidden.
    public var isPlaceholder: Bool
    /// The heading level (1...6) of a header, when the app sets one (SwiftUI `accessibilityHeading(.h2)`).
    public var headingLevel: Int?
    /// A text field's placeholder (SwiftUI `prompt`, UIKit `placeholder`): read in place of an empty value.
    public var prompt: String
    /// The names of custom actions (`accessibilityCustomActions`); any makes VoiceOver add "Actions available".
    public var customActions: [String]
    /// The container type VoiceOver announces at the edges of this element's children.
    public var containerType: ContainerType?

    /// Creates an element.
    public init(
        id: String, label: String = "", value: String = "", traits: Traits = [], switchState: SwitchState? = nil,
        hint: String = "", isHidden: Bool = false, container: ContainerBehavior? = nil,
        children: [AccessibilityElement] = [], isPlaceholder: Bool = false, headingLevel: Int? = nil,
        prompt: String = "", customActions: [String] = [], containerType: ContainerType? = nil
    ) {
        self.id = id
        self.label = label
        self.value = value
        self.traits = traits
        self.switchState = switchState
        self.hint = hint
        self.isHidden = isHidden
        self.container = container
        self.children = children
        self.isPlaceholder = isPlaceholder
        self.headingLevel = headingLevel
        self.prompt = prompt
        self.customActions = customActions
        self.containerType = containerType
    }

    /// True when VoiceOver can land on this node (given it is not hidden): a leaf with something to say, or a
    /// combining container.
    public var isFocusable: Bool {
        if container == .combine { return true }
        if container == .contain { return false }
        // Something to say, or a control to operate: an empty `Text` is no element, an unlabeled button is one.
        let controls: Traits = [
            .button, .backButton, .link, .searchField, .textField, .secureTextField, .adjustable, .tab,
        ]
        return !label.isEmpty || !value.isEmpty || switchState != nil || !traits.isDisjoint(with: controls)
    }
}

/// A screen: a name and its elements in reading order.
public struct Screen: Hashable, Sendable {
    /// The screen's name in the script.
    public var name: String
    /// Top-level elements in reading order.
    public var elements: [AccessibilityElement]

    /// Creates a screen.
    public init(name: String, elements: [AccessibilityElement]) {
        self.name = name
        self.elements = elements
    }

    /// The elements VoiceOver visits, in order: hidden subtrees skipped, `contain` containers opened,
    /// `combine` containers as one element.
    public var navigationOrder: [AccessibilityElement] {
        var result: [AccessibilityElement] = []
        func visit(_ element: AccessibilityElement) {
            guard !element.isHidden else { return }
            if element.container == .combine {
                result.append(element)
                return
            }
            if element.isFocusable { result.append(element) }
            for child in element.children { visit(child) }
        }
        for element in elements { visit(element) }
        return result
    }

    /// The element with `id` anywhere in the tree, hidden or not.
    public func element(_ id: String) -> AccessibilityElement? {
        func find(in list: [AccessibilityElement]) -> AccessibilityElement? {
            for element in list {
                if element.id == id { return element }
                if let found = find(in: element.children) { return found }
            }
            return nil
        }
        return find(in: elements)
    }

    /// True when the element with `id` exists and neither it nor an ancestor is hidden.
    public func isExposed(_ id: String) -> Bool {
        func search(_ list: [AccessibilityElement], hidden: Bool) -> Bool? {
            for element in list {
                let nowHidden = hidden || element.isHidden
                if element.id == id { return !nowHidden }
                if let found = search(element.children, hidden: nowHidden) { return found }
            }
            return nil
        }
        return search(elements, hidden: false) ?? false
    }

    /// Applies `change` to the element with `id`; returns false when there is none.
    @discardableResult
    public mutating func update(_ id: String, _ change: (inout AccessibilityElement) -> Void) -> Bool {
        func apply(in list: inout [AccessibilityElement]) -> Bool {
            for index in list.indices {
                if list[index].id == id {
                    change(&list[index])
                    return true
                }
                if apply(in: &list[index].children) { return true }
            }
            return false
        }
        return apply(in: &elements)
    }

    /// The element at `path` (child indexes from the top level down), nil when there is none.
    public func element(at path: some Collection<Int>) -> AccessibilityElement? {
        var list = elements
        var found: AccessibilityElement?
        for index in path {
            guard list.indices.contains(index) else { return nil }
            found = list[index]
            list = list[index].children
        }
        return found
    }

    /// Applies `change` to the element at `path` (child indexes from the top level down), touching only the
    /// arrays on the way to it; returns false when there is none.
    @discardableResult
    public mutating func update(at path: some Collection<Int>, _ change: (inout AccessibilityElement) -> Void)
        -> Bool
    {
        func apply(_ list: inout [AccessibilityElement], _ rest: ArraySlice<Int>) -> Bool {
            guard let index = rest.first, list.indices.contains(index) else { return false }
            if rest.count == 1 {
                change(&list[index])
                return true
            }
            return apply(&list[index].children, rest.dropFirst())
        }
        let steps = Array(path)
        return !steps.isEmpty && apply(&elements, steps[...])
    }

    /// Every label and value a sighted user can read now (exposed elements only), for text-availability checks.
    public var visibleTexts: Set<String> {
        var texts: Set<String> = []
        func walk(_ list: [AccessibilityElement]) {
            for element in list where !element.isHidden {
                if !element.label.isEmpty { texts.insert(element.label) }
                if !element.value.isEmpty { texts.insert(element.value) }
                walk(element.children)
            }
        }
        walk(elements)
        return texts
    }

    /// Every id in the tree, in document order.
    public var allIDs: [String] {
        var ids: [String] = []
        func walk(_ list: [AccessibilityElement]) {
            for element in list {
                ids.append(element.id)
                walk(element.children)
            }
        }
        walk(elements)
        return ids
    }
}
