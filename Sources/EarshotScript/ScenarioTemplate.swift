import EarshotCore

/// Text with `{…}` interpolations, evaluated by the engine when the action runs.
public struct ScenarioTemplate: Hashable, Sendable, CustomStringConvertible {
    /// The pieces in order.
    public var parts: [ScenarioTemplatePart]

    /// Creates a template from parts.
    public init(parts: [ScenarioTemplatePart]) { self.parts = parts }

    /// A template with no interpolation.
    public static func literal(_ text: String) -> ScenarioTemplate { ScenarioTemplate(parts: [.literal(text)]) }

    /// The literal text when the template has no interpolation.
    public var literalText: String? {
        var text = ""
        for part in parts {
            guard case .literal(let piece) = part else { return nil }
            text += piece
        }
        return text
    }

    /// The template as written, braces included.
    public var description: String { parts.map(\.description).joined() }
}

/// One piece of a template.
public enum ScenarioTemplatePart: Hashable, Sendable, CustomStringConvertible {
    /// Plain text.
    case literal(String)
    /// `{value ID}`: the element's current value.
    case value(element: String)
    /// `{label ID}`: the element's current label.
    case label(element: String)
    /// `{TABLE ID}` or `{TABLE}`: the table's entry keyed by the element's current value (for `{TABLE}`,
    /// the table's own key element). An absent key yields the empty string.
    case lookup(table: String, keyElement: String)
    /// `{clock}`: the time since the repeating line began, `HH:MM:SS` (the stopwatch's format).
    case clock
    /// `{countdown 12m}`: the span minus the time since the repeating line began, `M:SS`, floored at 0.
    case countdown(from: TimeSpan)
    /// `{count}`: the repetition number, starting at 1.
    case count

    /// The part as written.
    public var description: String {
        switch self {
        case .literal(let text): text
        case .value(let element): "{value \(element)}"
        case .label(let element): "{label \(element)}"
        case .lookup(let table, let key): "{\(table) \(key)}"
        case .clock: "{clock}"
        case .countdown(let span): "{countdown \(span)}"
        case .count: "{count}"
        }
    }
}
