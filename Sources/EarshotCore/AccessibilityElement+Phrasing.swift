/// Where an element stands among others, for the words VoiceOver adds after its traits.
public struct PhraseContext: Hashable, Sendable {
    /// "k of n" among the tabs of its tab bar.
    public var position: (index: Int, count: Int)? {
        get { positionIndex.map { ($0, positionCount) } }
        set {
            positionIndex = newValue?.index
            positionCount = newValue?.count ?? 0
        }
    }
    private var positionIndex: Int?
    private var positionCount = 0
    /// The container whose first element this is ("list start", "landmark").
    public var starts: ContainerType?
    /// The container whose last element this is ("list end", "end").
    public var ends: ContainerType?
    /// Whether the role words of the traits ("button", "heading", "tab" …) are spoken: the verbosity setting.
    /// States ("Selected", "Dimmed", "on") are spoken either way.
    public var traitWords: Bool

    /// A context; the defaults are an element on its own with every word spoken.
    public init(
        position: (index: Int, count: Int)? = nil, starts: ContainerType? = nil, ends: ContainerType? = nil,
        traitWords: Bool = true
    ) {
        self.positionIndex = position?.index
        self.positionCount = position?.count ?? 0
        self.starts = starts
        self.ends = ends
        self.traitWords = traitWords
    }
}

extension AccessibilityElement {
    /// What VoiceOver says when focus lands here, without the hint.
    ///
    /// `[Selected,] label, value, [Dimmed,] trait words, [k of n,] [list start / list end,] [Actions available]`
    /// (the speech model's phrasing rule, documented in `docs/speech-text.md`; [SRC] AccessibilitySnapshot's
    /// VoiceOver description model). Examples:
    /// `Cart, 3 items, button`, `Captions, switch button, on`, `Home, tab, 1 of 4`, `Volume, 50%, adjustable`,
    /// `Password, secure text field` (the typed dots are not read), `Email, text field` with an empty value
    /// reads its prompt in the value's place. A combining container speaks its exposed children's phrases joined
    /// by commas.
    public func spokenDescription(position: (index: Int, count: Int)? = nil) -> String {
        spokenDescription(PhraseContext(position: position))
    }

    /// What VoiceOver says when focus lands here, in `context`, without the hint.
    public func spokenDescription(_ context: PhraseContext) -> String {
        var parts: [String] = []
        if traits.contains(.selected) { parts.append("Selected") }
        if container == .combine {
            var inner = PhraseContext()
            inner.traitWords = context.traitWords
            let children = children.filter { !$0.isHidden }.map { $0.spokenDescription(inner) }.filter { !$0.isEmpty }
            if !label.isEmpty { parts.append(label) }
            parts.append(contentsOf: children)
        } else {
            if !label.isEmpty { parts.append(label) }
            if !spokenValue.isEmpty { parts.append(spokenValue) }
        }
        if traits.contains(.notEnabled) { parts.append("Dimmed") }
        parts.append(contentsOf: context.traitWords ? traitWords : stateWords)
        if let position = context.position, traits.contains(.tab) {
            parts.append("\(position.index) of \(position.count)")
        }
        if let starts = context.starts { parts.append(starts == .list ? "list start" : "landmark") }
        if let ends = context.ends { parts.append(ends == .list ? "list end" : "end") }
        if !customActions.isEmpty { parts.append("Actions available") }
        return parts.joined(separator: ", ")
    }

    /// The value as read: a secure field's typed text is never read, and an empty text field reads its prompt.
    public var spokenValue: String {
        if traits.contains(.secureTextField) { return value.isEmpty ? prompt : "" }
        if traits.isTextEntry && value.isEmpty { return prompt }
        return value
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
        if traits.contains(.header) { words.append(headingLevel.map { "heading level \($0)" } ?? "heading") }
        if traits.contains(.link) { words.append("link") }
        if traits.contains(.adjustable) { words.append("adjustable") }
        if traits.contains(.image) { words.append("image") }
        if traits.contains(.searchField) { words.append("search field") }
        return words
    }

    /// With trait words off (verbosity), only the state words remain: a switch's "on" / "off".
    public var stateWords: [String] { switchState.map { [$0.rawValue] } ?? [] }

    /// The hint spoken after the hint delay (V12): the app's hint, then the control's own usage hint, the way
    /// VoiceOver joins them ("Sets the volume. Swipe up or down with one finger to adjust the value.").
    /// `traitHints` off leaves only the app's hint.
    public func spokenHint(traitHints: Bool = true) -> String {
        var usage: String?
        if traitHints {
            if traits.contains(.adjustable) {
                usage = "Swipe up or down with one finger to adjust the value."
            } else if switchState != nil {
                usage = "Double tap to toggle setting."
            } else if traits.isTextEntry {
                usage = "Double tap to edit."
            }
        }
        guard let usage else { return hint }
        if hint.isEmpty { return usage }
        return (hint.hasSuffix(".") ? hint : hint + ".") + " " + usage
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

extension Screen {
    /// The phrase context of the element with `id` in `order` (the navigation order): its tab position, the list
    /// or landmark it starts or ends, and the verbosity.
    public func phraseContext(of id: String, in order: [AccessibilityElement], traitWords: Bool = true) -> PhraseContext
    {
        var context = PhraseContext(traitWords: traitWords)
        if let element = element(id), element.traits.contains(.tab) {
            let tabs = order.filter { $0.traits.contains(.tab) }
            context.position = tabs.firstIndex { $0.id == id }.map { (index: $0 + 1, count: tabs.count) }
        }
        // The innermost typed container holding the element (later, deeper matches win): its first and last
        // reachable members.
        let reachable = Set(order.map(\.id))
        func search(_ list: [AccessibilityElement]) {
            for item in list where !item.isHidden {
                if let type = item.containerType, item.container != .combine {
                    let inside = item.allDescendantIDs.filter { reachable.contains($0) }
                    if inside.contains(id) {
                        context.starts = inside.first == id ? type : nil
                        context.ends = inside.last == id && inside.count > 1 ? type : nil
                    }
                }
                search(item.children)
            }
        }
        search(elements)
        return context
    }
}

extension AccessibilityElement {
    /// The ids of every descendant, in document order (not this element's own).
    var allDescendantIDs: [String] { children.flatMap { [$0.id] + $0.allDescendantIDs } }
}
