import Foundation

/// The regular expressions of `matching "…"` checks, each compiled once per process (case-insensitively, as
/// checks match): the parser validates a pattern by compiling it, and every utterance a check looks at is matched
/// with the same compiled expression. Compiling was an eighth of a script's parse, and was repeated for every
/// text a check matched.
enum TextPatterns {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var compiled: [String: NSRegularExpression?] = [:]

    /// `pattern` compiled case-insensitively, nil when it is not a valid regular expression.
    static func expression(_ pattern: String) -> NSRegularExpression? {
        if let known = lock.withLock({ compiled[pattern] }) { return known }
        let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        lock.withLock { compiled[pattern] = expression }
        return expression
    }

    /// True when `pattern` matches somewhere in `text`, ignoring case (what `String.range(of:options:)` with
    /// `.regularExpression` and `.caseInsensitive` answers); an invalid pattern matches nothing.
    static func matches(_ pattern: String, in text: String) -> Bool {
        guard let expression = expression(pattern) else { return false }
        return expression.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs, as `trimmingCharacters(in: .whitespaces)` gives it;
    /// an ASCII string (nearly every script line) without going through Foundation.
    func trimmingSpaces() -> String {
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return trimmingCharacters(in: .whitespaces) }
        let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
