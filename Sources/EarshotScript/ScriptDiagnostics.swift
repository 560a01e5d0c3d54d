/// One problem found in a scenario script, with what is needed to print it like a compiler does.
public struct ScriptDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// Where the offending token starts.
    public var location: SourceLocation
    /// How many characters the offending token spans (at least 1), for the `^~~~` underline.
    public var length: Int
    /// The message, without the `error:` prefix.
    public var message: String
    /// An optional suggestion printed as `hint: …`.
    public var hint: String?
    /// The full source line the location points into, without its line ending.
    public var sourceLine: String

    /// Creates a diagnostic.
    public init(location: SourceLocation, length: Int, message: String, hint: String? = nil, sourceLine: String) {
        self.location = location
        self.length = max(1, length)
        self.message = message
        self.hint = hint
        self.sourceLine = sourceLine
    }

    /// The caret line: `^` under the column, then `~` for the rest of the token's extent.
    ///
    /// Tabs before the column are copied so the caret lines up in a terminal.
    public var caretLine: String {
        let prefix = sourceLine.prefix(max(0, location.column - 1)).map { $0 == "\t" ? "\t" : " " }
        return prefix.joined() + "^" + String(repeating: "~", count: length - 1)
    }

    /// `path:line:col: error: message`, the source line, the caret line and the hint, if any.
    public var description: String {
        var lines = ["\(location): error: \(message)", sourceLine, caretLine]
        if let hint { lines.append("hint: \(hint)") }
        return lines.joined(separator: "\n")
    }
}

/// Every problem found in one scenario script; the CLI prints it, exits with status 2 and runs nothing.
public struct ScriptDiagnostics: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problems, in source order.
    public var diagnostics: [ScriptDiagnostic]

    /// Creates a collection of diagnostics.
    public init(_ diagnostics: [ScriptDiagnostic]) { self.diagnostics = diagnostics }

    /// Each diagnostic as printed, separated by blank lines, then a count line.
    public var description: String {
        let count = diagnostics.count
        let summary = "\(count) error\(count == 1 ? "" : "s") generated."
        return (diagnostics.map(\.description) + [summary]).joined(separator: "\n\n")
    }
}
