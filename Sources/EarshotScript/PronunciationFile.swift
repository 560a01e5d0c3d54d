import EarshotCore
import Foundation

/// Reads a project's pronunciation file (`Voices/pronunciations`; format in `docs/speech-text.md`).
///
/// One entry per line, `WORDS = HOW THEY ARE SAID`; `#` starts a comment line; blank lines are ignored. The
/// left side is a word or phrase matched whole and ignoring case, or `/regex/` matched where it starts (the right
/// side may use `$1` …):
///
/// ```
/// Earshot = ear shot
/// iOS = eye oh ess
/// /SKU-(\d+)/ = S K U $1
/// ```
public enum PronunciationFile {
    /// The file's name inside a Voices folder.
    public static let fileName = "pronunciations"

    /// Reads and parses the file at `path`.
    public static func load(path: String) throws(VoiceFileError) -> PronunciationDictionary {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw VoiceFileError(
                path: path, line: 0, column: 0,
                message: "cannot read the pronunciation file (\(error.localizedDescription))")
        }
        return try parse(text, path: path)
    }

    /// Parses pronunciation file text; `path` is only used in errors.
    public static func parse(_ text: String, path: String) throws(VoiceFileError) -> PronunciationDictionary {
        var entries: [PronunciationDictionary.Entry] = []
        var seenWords: [String: Int] = [:]
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, rawLine) in lines.enumerated() {
            let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : String(rawLine)
            let number = index + 1
            func fail(_ column: Int, _ message: String) -> VoiceFileError {
                VoiceFileError(path: path, line: number, column: column, message: message, sourceLine: line)
            }
            let characters = Array(line)
            var start = 0
            while start < characters.count, characters[start].isWhitespace { start += 1 }
            if start == characters.count || characters[start] == "#" { continue }
            // The `=` that separates the sides: after a closing `/` for a pattern.
            var separator: Int?
            if characters[start] == "/" {
                var close = start + 1
                while close < characters.count, characters[close] != "/" || characters[close - 1] == "\\" {
                    close += 1
                }
                guard close < characters.count else { throw fail(start + 1, "unterminated pattern: add a closing /") }
                separator = characters[(close + 1)...].firstIndex(of: "=")
                if let stray = characters[(close + 1)...].firstIndex(where: { !$0.isWhitespace }),
                    stray != separator
                {
                    throw fail(stray + 1, "expected '=' after the pattern")
                }
            } else {
                separator = characters[start...].firstIndex(of: "=")
            }
            guard let separator else {
                throw fail(
                    characters.count + 1, "expected '=' and how it is said, as in `Earshot = ear shot`")
            }
            let left = String(characters[start..<separator]).trimmingSpaces()
            let right = String(characters[(separator + 1)...]).trimmingSpaces()
            guard !left.isEmpty else { throw fail(start + 1, "nothing before '=': write the word to replace") }
            guard !right.isEmpty else {
                throw fail(separator + 2, "nothing after '=': write how '\(left)' is said")
            }
            if left.hasPrefix("/") {
                let pattern = String(left.dropFirst().dropLast())
                guard !pattern.isEmpty else { throw fail(start + 1, "empty pattern //") }
                let regex: NSRegularExpression
                do {
                    regex = try NSRegularExpression(pattern: pattern)
                } catch {
                    throw fail(start + 2, "invalid pattern /\(pattern)/: not a regular expression")
                }
                entries.append(.init(match: .pattern(regex), replacement: right, line: number))
            } else {
                let key = left.lowercased()
                if let first = seenWords[key] {
                    throw fail(start + 1, "duplicate entry '\(left)' (first on line \(first))")
                }
                seenWords[key] = number
                entries.append(.init(match: .word(left), replacement: right, line: number))
            }
        }
        return PronunciationDictionary(entries: entries)
    }
}
