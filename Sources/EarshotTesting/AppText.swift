import EarshotCore

/// Text the app speaks or shows, read when the action runs rather than when it is written.
///
/// A string literal is plain text. Interpolations read the screen at the moment the action runs, which is what a
/// debounced search needs: the query is the one in the field when the debounce fires, not when the key went
/// down.
///
/// ```swift
/// let resultCounts = ["j": "42", "ja": "17", "jasmine": "2"]
/// .announcement("\(resultCounts, keyedBy: "query") results")  // "2 results" once "jasmine" is typed
/// .value(of: "cart", to: "\(valueOf: "count") items")
/// .value(of: "timer", to: "\(.clock)")                          // "00:01:05" inside `.every(…)`
/// ```
public struct AppText: Hashable, Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The engine's template.
    public var template: TextTemplate
    /// Lookup tables the template reads, by the name the template uses.
    var tables: [String: [String: String]]

    /// A value the engine computes when the text is read.
    public enum Live: Hashable, Sendable {
        /// Time since the enclosing `.every(…)` started, as `HH:MM:SS` (a stopwatch).
        case clock
        /// Time left of `total` since the enclosing `.every(…)` started, as `M:SS` (a countdown).
        case countdown(from: Duration)
        /// How many times the enclosing `.every(…)` has fired, from 1.
        case iteration
    }

    /// Builds an ``AppText`` from a string literal with interpolations.
    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [TextTemplate.Part] = []
        var tables: [String: [String: String]] = [:]

        /// Starts an interpolation.
        public init(literalCapacity: Int, interpolationCount: Int) {}

        /// Literal text.
        public mutating func appendLiteral(_ literal: String) {
            guard !literal.isEmpty else { return }
            parts.append(.literal(literal))
        }

        /// A fixed value, written into the text now: `"\(count) items"`.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            parts.append(.literal(value.description))
        }

        /// The element's `accessibilityValue` when the text is read (a text field's text, a counter).
        public mutating func appendInterpolation(valueOf id: String) {
            parts.append(.value(of: id))
        }

        /// The element's `accessibilityLabel` when the text is read.
        public mutating func appendInterpolation(labelOf id: String) {
            parts.append(.label(of: id))
        }

        /// The entry of `table` for the element's value when the text is read; empty when there is none.
        ///
        /// A search screen's result counts: `"\(["jasmine": "2"], keyedBy: "query") results"`.
        public mutating func appendInterpolation(_ table: [String: String], keyedBy id: String) {
            let name = AppText.tableName(table)
            tables[name] = table
            parts.append(.lookup(table: name, keyElement: id))
        }

        /// A clock, countdown or count computed when the text is read: `"\(.clock)"`.
        public mutating func appendInterpolation(_ live: Live) {
            switch live {
            case .clock: parts.append(.clock)
            case .countdown(let total): parts.append(.countdown(total: TimeSpan(total)))
            case .iteration: parts.append(.iteration)
            }
        }
    }

    /// Plain text.
    public init(stringLiteral value: String) {
        template = .literal(value)
        tables = [:]
    }

    /// Text with interpolations.
    public init(stringInterpolation: StringInterpolation) {
        template = TextTemplate(parts: stringInterpolation.parts)
        tables = stringInterpolation.tables
    }

    /// Plain text from a string made at run time.
    public init(_ text: String) {
        self.init(stringLiteral: text)
    }

    /// The text as an Earshot script would write it, `{value query}` for an interpolation.
    public var description: String { template.description }

    /// A stable name for a lookup table, derived from its contents so the same table always gets the same name.
    static func tableName(_ table: [String: String]) -> String {
        let body = table.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs, unlike `Hasher`
        for byte in body.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "table-" + String(hash, radix: 16)
    }
}
