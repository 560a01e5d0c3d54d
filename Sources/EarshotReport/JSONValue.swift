import Foundation

/// A JSON value with object keys kept in the order they were given: the one JSON writer every machine-readable
/// report goes through (`check --format json`, SARIF).
///
/// Building a value and rendering it are separate steps, so a report decides its content once and the writer
/// alone knows about quoting, escaping and number formatting.
public indirect enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case integer(Int)
    /// A number with a fraction, written with at most `decimals` digits after the point.
    case number(Double, decimals: Int)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in this order.
    case object([(String, JSONValue)])

    /// A time in seconds with millisecond precision, the unit every Earshot report uses.
    public static func seconds(_ value: Double) -> JSONValue { .number(value, decimals: 3) }

    /// A string, or `null` when there is none.
    public static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// The document as text: two-space indentation, one member per line, a final newline.
    public func rendered() -> String {
        var output = ""
        write(into: &output, indent: 0)
        return output + "\n"
    }

    private func write(into output: inout String, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .number(let value, let decimals): output += Self.format(value, decimals: decimals)
        case .string(let value): output += Self.quote(value)
        case .array(let items):
            guard !items.isEmpty else {
                output += "[]"
                return
            }
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += String(repeating: "  ", count: indent + 1)
                item.write(into: &output, indent: indent + 1)
                output += index == items.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: "  ", count: indent) + "]"
        case .object(let members):
            guard !members.isEmpty else {
                output += "{}"
                return
            }
            output += "{\n"
            for (index, (key, value)) in members.enumerated() {
                output += String(repeating: "  ", count: indent + 1) + Self.quote(key) + ": "
                value.write(into: &output, indent: indent + 1)
                output += index == members.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: "  ", count: indent) + "}"
        }
    }

    /// A finite number with trailing zeros trimmed (`1.5`, `2`, `0.125`); JSON has no NaN or infinity, so
    /// those become 0.
    static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var text = String(format: "%.\(max(0, decimals))f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped; everything else as UTF-8.
    static func quote(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let control where control.value < 0x20:
                output += String(format: "\\u%04x", control.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    /// Two values are equal when they render the same text.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.rendered() == rhs.rendered() }
}
