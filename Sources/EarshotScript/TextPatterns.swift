import Foundation

/// The regular expressions of `matching "…"` checks, each compiled once per process (case-insensitively, as
/// checks match): the parser validates a pattern by compiling it, and every utterance a check looks at is matched
/// with the same compiled expression. Compiling was an eighth of a script's parse, and was repeated for every
/// text a check matched.
///
/// A pattern of the common subset is answered by `PlainRegex`, and ICU (`NSRegularExpression`) is only compiled
/// for the rest, or for a text `PlainRegex` leaves to it: the first ICU pattern of a process costs about 2 ms.
enum TextPatterns {
    /// A pattern's compiled forms; ICU's is made the first time it is needed.
    private struct Compiled {
        var plain: PlainRegex?
        var icu: NSRegularExpression??
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var compiled: [String: Compiled] = [:]

    /// Whether `pattern` is a valid regular expression (a pattern `PlainRegex` reads always is one for ICU too).
    static func isValid(_ pattern: String) -> Bool {
        entry(pattern).plain != nil || expression(pattern) != nil
    }

    /// `pattern` compiled case-insensitively by ICU, nil when it is not a valid regular expression.
    static func expression(_ pattern: String) -> NSRegularExpression? {
        if let known = lock.withLock({ compiled[pattern]?.icu }) { return known }
        let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        lock.withLock { compiled[pattern, default: Compiled(plain: PlainRegex(pattern))].icu = .some(expression) }
        return expression
    }

    /// True when `pattern` matches somewhere in `text`, ignoring case (what `String.range(of:options:)` with
    /// `.regularExpression` and `.caseInsensitive` answers); an invalid pattern matches nothing.
    static func matches(_ pattern: String, in text: String) -> Bool {
        if let answer = entry(pattern).plain?.matches(in: text) { return answer }
        guard let expression = expression(pattern) else { return false }
        return expression.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil
    }

    private static func entry(_ pattern: String) -> Compiled {
        if let known = lock.withLock({ compiled[pattern] }) { return known }
        let entry = Compiled(plain: PlainRegex(pattern))
        return lock.withLock {
            if let raced = compiled[pattern] { return raced }
            compiled[pattern] = entry
            return entry
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs, as `trimmingCharacters(in: .whitespaces)` gives it
    /// (tabs, Unicode's space separators and the zero-width space, scalar by scalar), without going through
    /// Foundation: its character sets cost about 0.2 ms to set up, at every start whose script has a line with a
    /// character outside ASCII.
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = {
            $0 == " " || $0 == "\t"
                || ($0.value >= 0x80 && ($0.properties.generalCategory == .spaceSeparator || $0.value == 0x200B))
        }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
