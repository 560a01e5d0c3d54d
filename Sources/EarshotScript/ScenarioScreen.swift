/// A `screen NAME` block: the elements in reading order.
public struct ScenarioScreen: Sendable {
    /// The screen's name.
    public var name: String
    /// Top-level elements in reading order (containers hold their children).
    public var elements: [ScenarioElement]
    /// The `screen` line.
    public var location: SourceLocation
}

/// The kind word that starts an element line; it implies default traits.
public enum ScenarioElementKind: String, Hashable, Sendable, CaseIterable {
    case button, text, header, link, image, searchField, textField, secureField, toggle, tab, slider, video
    case progress, group, picker, stepper

    /// The traits the kind implies (the element's `trait` attributes are added to them).
    ///
    /// `toggle` is a switch (`Toggle`/`UISwitch`, read "switch button"); `video` is a player that starts a
    /// media session; `progress` is a `ProgressView` (read as its label); `group` is a container.
    public var impliedTraits: [ScenarioTrait] {
        switch self {
        case .button: [.button]
        case .text, .progress: [.staticText]
        case .header: [.header]
        case .link: [.link]
        case .image: [.image]
        case .searchField: [.searchField]
        case .textField: [.textField]
        case .secureField: [.secureTextField]
        case .toggle: [.button]
        case .tab: [.tab]
        case .slider, .picker, .stepper: [.adjustable]
        case .video: [.startsMediaSession]
        case .group: []
        }
    }
}

/// An accessibility trait, named as UIKit/SwiftUI name it (raw values are the script's words).
public enum ScenarioTrait: String, Hashable, Sendable, CaseIterable {
    case button, header, link, searchField, textField, staticText, image, adjustable, tab, selected, notEnabled
    case updatesFrequently, backButton, secureTextField, playsSound, startsMediaSession
}

/// `list` / `landmark` on a `group` (`accessibilityContainerType`).
public enum ScenarioContainerType: String, Hashable, Sendable, CaseIterable {
    case list, landmark
}

/// How a `group` exposes its children.
public enum ScenarioContainer: String, Hashable, Sendable, CaseIterable {
    /// One element whose label joins its children's text (`.accessibilityElement(children: .combine)`).
    case combine
    /// Not an element itself; its children are (`.accessibilityElement(children: .contain)`).
    case contain
}

/// One element line (or a `group` with its indented children).
public struct ScenarioElement: Sendable {
    /// The kind word.
    public var kind: ScenarioElementKind
    /// The id, unique on its screen. Elements made by `repeat N:` get `-1` … `-N` appended.
    public var id: String
    /// `accessibilityLabel` (may be empty).
    public var label: String
    /// `value "…"`, if given.
    public var value: String?
    /// `hint "…"`, if given.
    public var hint: String?
    /// Traits given with `trait NAME`, in addition to `kind.impliedTraits`.
    public var traits: [ScenarioTrait]
    /// `on`/`off` on a `toggle` (or `switch on|off` on any element).
    public var switchOn: Bool?
    /// `hidden`: hidden from assistive technology with its subtree.
    public var hidden: Bool
    /// `placeholder`: a skeleton row. A designer's mark for checks and findings; changes no behaviour.
    public var placeholder: Bool
    /// `media NAME` on a `video`: the media it plays.
    public var media: String?
    /// `combine`/`contain` on a `group`.
    public var container: ScenarioContainer?
    /// A group's children in reading order.
    public var children: [ScenarioElement]
    /// `level N` on a `header`: the heading level, 1...6.
    public var headingLevel: Int? = nil
    /// `prompt "…"` on a text field: the placeholder read while it is empty.
    public var prompt: String? = nil
    /// `action "…"` (repeatable): custom actions; VoiceOver then adds "Actions available".
    public var customActions: [String] = []
    /// `list` or `landmark` on a `group`: the container type VoiceOver announces at its edges.
    public var containerType: ScenarioContainerType? = nil
    /// The element's line.
    public var location: SourceLocation

    /// `kind.impliedTraits` followed by the explicit traits, without duplicates.
    public var allTraits: [ScenarioTrait] {
        var result: [ScenarioTrait] = []
        for trait in kind.impliedTraits + traits where !result.contains(trait) { result.append(trait) }
        return result
    }

    /// This element's id followed by its descendants' ids, in reading order.
    public var allIDs: [String] { [id] + children.flatMap(\.allIDs) }
}

/// `data NAME [KEY-ELEMENT]: k=v k=v`: a lookup table for `{NAME ID}` interpolations.
public struct ScenarioDataTable: Sendable {
    /// The table's name.
    public var name: String
    /// The element whose current value is the key when a template writes just `{NAME}`.
    public var keyElement: String?
    /// Entries in source order.
    public var entries: [ScenarioDataEntry]
    /// The `data` line.
    public var location: SourceLocation
    /// `default "…"`: the text for a key the table lacks; without it a lookup miss stops the run.
    public var defaultValue: String? = nil

    /// The value for a key, if present.
    public func value(forKey key: String) -> String? { entries.first { $0.key == key }?.value }
}

/// One `key=value` of a data table.
public struct ScenarioDataEntry: Hashable, Sendable {
    /// The key (a word or a quoted string).
    public var key: String
    /// The value (a word or a quoted string).
    public var value: String
}
