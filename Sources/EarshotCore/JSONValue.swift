import Foundation

/// A JSON value with object keys kept in the order they were given: the one JSON writer every machine-readable
/// output goes through (`check --format json`, SARIF, the timeline's JSON Lines, a render's segment and audio
/// lines).
///
/// Building a value and rendering it are separate steps, so an output decides its content once and the writer
/// alone knows about quoting, escaping and number formatting. ``rendered()`` is the indented document form;
/// ``compact()`` is one line, for JSON Lines.
public indirect enum JSONValue: Equatable, Sendable, ExpressibleByStringLiteral {
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

    /// A string from a literal.
    public init(stringLiteral value: String) { self = .string(value) }

    /// A whole number of any integer type.
    public static func int(_ value: some BinaryInteger) -> JSONValue { .integer(Int(value)) }

    /// An array of strings.
    public static func strings(_ texts: [String]) -> JSONValue { .array(texts.map(JSONValue.string)) }

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

    /// The value on one line, no spaces, members in their order (JSON Lines).
    public func compact() -> String {
        var output = ""
        write(compactInto: &output)
        return output
    }

    /// Appends the value on one line to `output`.
    public func write(compactInto output: inout String) {
        switch self {
        case .null: output.append("null")
        case .bool(let value): output.append(value ? "true" : "false")
        case .integer(let value): output.append(String(value))
        case .number(let value, let decimals): output.append(Self.format(value, decimals: decimals))
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let items):
            output.append("[")
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(",") }
                item.write(compactInto: &output)
            }
            output.append("]")
        case .object(let members):
            output.append("{")
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output.append(",") }
                Self.writeString(key, to: &output)
                output.append(":")
                value.write(compactInto: &output)
            }
            output.append("}")
        }
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
        var output = ""
        writeString(text, to: &output)
        return output
    }

    /// A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped; everything else,
    /// `/` and non-ASCII included, written as is.
    static func writeString(_ text: String, to output: inout String) {
        output.append("\"")
        // Runs that need no escaping are appended whole; only the ASCII characters JSON escapes are written one by
        // one. Every run boundary is a Unicode scalar boundary (next to an ASCII byte), not always a Character one
        // (a combining mark may follow a quote), so runs are cut from the scalar view.
        let bytes = text.utf8
        func appendRun(_ range: Range<String.Index>) {
            output.append(contentsOf: Substring(text.unicodeScalars[range]))
        }
        var runStart = bytes.startIndex
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                bytes.formIndex(after: &index)
                continue
            }
            appendRun(runStart..<index)
            switch byte {
            case UInt8(ascii: "\""): output.append("\\\"")
            case UInt8(ascii: "\\"): output.append("\\\\")
            case UInt8(ascii: "\n"): output.append("\\n")
            case UInt8(ascii: "\r"): output.append("\\r")
            case UInt8(ascii: "\t"): output.append("\\t")
            case 0x08: output.append("\\b")
            case 0x0C: output.append("\\f")
            default:
                let hex = String(byte, radix: 16)
                output.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            }
            bytes.formIndex(after: &index)
            runStart = index
        }
        appendRun(runStart..<index)
        output.append("\"")
    }

    /// Two values are equal when they render the same text.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.rendered() == rhs.rendered() }
}
