/// Text the app produces at run time: literals mixed with values read when the action runs.
///
/// A debounced announcement of `{results-for query} results` reads the query when the debounce fires, not when
/// the key was pressed — the reason templates are evaluated late.
public struct TextTemplate: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// One piece of a template.
    public enum Part: Hashable, Sendable {
        /// Literal text.
        case literal(String)
        /// The current value of an element.
        case value(of: String)
        /// The current label of an element.
        case label(of: String)
        /// A lookup in a data table keyed by an element's current value (`{results-for query}`).
        case lookup(table: String, keyElement: String)
        /// Time since the enclosing repetition started, as `HH:MM:SS` (a stopwatch readout).
        case clock
        /// Time left of `total` since the enclosing repetition started, as `M:SS` (a countdown).
        case countdown(total: TimeSpan)
        /// The enclosing repetition's count, from 1.
        case iteration
    }

    /// The parts in order.
    public var parts: [Part]
    /// Where the template was written (`path:line:column`), named when a lookup misses.
    public var origin: String?
    /// Text for a key a table lacks, by table name (the script's `data NAME default "…"`).
    public var lookupDefaults: [String: String] = [:]

    /// Creates a template from parts.
    public init(parts: [Part]) { self.parts = parts }

    /// A literal template.
    public init(stringLiteral value: String) { parts = [.literal(value)] }

    /// A literal template.
    public static func literal(_ text: String) -> TextTemplate { TextTemplate(parts: [.literal(text)]) }

    /// The template as a script writes it.
    public var description: String {
        parts.map { part -> String in
            switch part {
            case .literal(let text): return text
            case .value(let id): return "{value \(id)}"
            case .label(let id): return "{label \(id)}"
            case .lookup(let table, let key): return "{\(table) \(key)}"
            case .clock: return "{clock}"
            case .countdown(let total): return "{countdown \(total)}"
            case .iteration: return "{n}"
            }
        }.joined()
    }
}

/// What a template reads when it is evaluated.
public struct TemplateContext {
    /// Reads an element's current label and value.
    public var element: (String) -> AccessibilityElement?
    /// Data tables by name.
    public var tables: [String: [String: String]]
    /// Time since the enclosing repetition started.
    public var elapsed: TimeSpan
    /// The enclosing repetition's count, from 1.
    public var iteration: Int
    /// Told when a data-table lookup finds no entry for its key (the text then reads as empty).
    public var missingEntry: ((TemplateMiss) -> Void)?

    /// Creates a context.
    public init(
        element: @escaping (String) -> AccessibilityElement?, tables: [String: [String: String]], elapsed: TimeSpan,
        iteration: Int
    ) {
        self.element = element
        self.tables = tables
        self.elapsed = elapsed
        self.iteration = iteration
    }
}

extension TextTemplate {
    /// The text now. A missing table entry reads as an empty string and is reported to `missingEntry`.
    public func evaluate(in context: TemplateContext) -> String {
        parts.map { part -> String in
            switch part {
            case .literal(let text): return text
            case .value(let id): return context.element(id)?.value ?? ""
            case .label(let id): return context.element(id)?.label ?? ""
            case .lookup(let table, let key):
                let keyText = context.element(key)?.value ?? ""
                guard let found = context.tables[table]?[keyText] ?? lookupDefaults[table] else {
                    context.missingEntry?(TemplateMiss(table: table, keyElement: key, key: keyText, origin: origin))
                    return ""
                }
                return found
            case .clock:
                let total = Int(context.elapsed.nanoseconds / 1_000_000_000)
                return
                    "\(Self.twoDigits(total / 3600)):\(Self.twoDigits(total / 60 % 60)):\(Self.twoDigits(total % 60))"
            case .countdown(let total):
                let left = max(0, Int((total - context.elapsed).nanoseconds / 1_000_000_000))
                return "\(left / 60):\(Self.twoDigits(left % 60))"
            case .iteration: return String(context.iteration)
            }
        }.joined()
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}
