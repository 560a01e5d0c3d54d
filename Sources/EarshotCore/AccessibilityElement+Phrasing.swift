extension AccessibilityElement {
    /// What VoiceOver says when focus lands here, without the hint.
    ///
    /// `[Selected,] label, value, [Dimmed,] trait words, [k of n]` (SPEECH-MODEL §2 "Element phrasing";
    /// [SRC] AccessibilitySnapshot's VoiceOver description model). Examples: `Cart, 3 items, button`,
    /// `Captions, switch button, on`, `Search products, search field`. A combining container speaks its
    /// exposed children's phrases joined by commas. `position` gives `k of n` for tabs.
    public func spokenDescription(position: (index: Int, count: Int)? = nil) -> String {
        var parts: [String] = []
        if traits.contains(.selected) { parts.append("Selected") }
        if container == .combine {
            let inner = children.filter { !$0.isHidden }.map { $0.spokenDescription() }.filter { !$0.isEmpty }
            if !label.isEmpty { parts.append(label) }
            parts.append(contentsOf: inner)
        } else {
            if !label.isEmpty { parts.append(label) }
            if !value.isEmpty { parts.append(value) }
        }
        if traits.contains(.notEnabled) { parts.append("Dimmed") }
        parts.append(contentsOf: traitWords)
        if let position, traits.contains(.tab) { parts.append("\(position.index) of \(position.count)") }
        return parts.joined(separator: ", ")
    }

    /// The words VoiceOver adds for the traits, in its order.
    public var traitWords: [String] {
        var words: [String] = []
        if traits.contains(.backButton) {
            words.append("back button")
        } else if switchState != nil {
            words.append("switch button")
        } else if traits.contains(.button) {
            words.append("button")
        }
        if let switchState { words.append(switchState.rawValue) }
        if traits.contains(.tab) { words.append("tab") }
        if traits.contains(.secureTextField) {
            words.append("secure text field")
        } else if traits.contains(.textField) {
            words.append("text field")
        }
        if traits.contains(.header) { words.append("heading") }
        if traits.contains(.link) { words.append("link") }
        if traits.contains(.adjustable) { words.append("adjustable") }
        if traits.contains(.image) { words.append("image") }
        if traits.contains(.searchField) { words.append("search field") }
        return words
    }

    /// What a poll re-reads when the element changed: the value, the label, or both.
    public func polledText(previousLabel: String, previousValue: String) -> String {
        let labelChanged = label != previousLabel
        let valueChanged = value != previousValue
        switch (labelChanged, valueChanged) {
        case (true, true): return [label, value].filter { !$0.isEmpty }.joined(separator: ", ")
        case (true, false): return label
        default: return value.isEmpty ? label : value
        }
    }
}
