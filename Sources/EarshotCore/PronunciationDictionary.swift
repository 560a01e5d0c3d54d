import Foundation

/// A project's pronunciations: words or patterns and how they are said (brand names, product codes).
///
/// Applied to the normalizer's output (`SpeechLibrary.speechText(for:voice:)`), so an entry sees the words the
/// screen reader would say. The file format (`Voices/pronunciations`) is read by `EarshotScript.PronunciationFile`.
/// At each place in the text the first entry in file order that matches wins.
public struct PronunciationDictionary: Sendable {
    /// What an entry matches.
    public enum Match: Sendable {
        /// A whole word or phrase, ignoring case (`Earshot`, `iOS`).
        case word(String)
        /// A regular expression anchored where it starts to match (`SKU-(\d+)`), with `$1` … in the replacement.
        case pattern(NSRegularExpression)
    }

    /// One line of the dictionary.
    public struct Entry: Sendable {
        /// What it matches.
        public var match: Match
        /// How it is said.
        public var replacement: String
        /// The line it came from (for messages).
        public var line: Int

        /// Creates an entry.
        public init(match: Match, replacement: String, line: Int) {
            self.match = match
            self.replacement = replacement
            self.line = line
        }
    }

    /// The entries in file order.
    public var entries: [Entry]

    /// Creates a dictionary.
    public init(entries: [Entry]) { self.entries = entries }

    /// No pronunciations.
    public static let empty = PronunciationDictionary(entries: [])

    /// `text` with every match replaced, as a `SpeechText` whose posted side is `text`.
    public func apply(to text: String) -> SpeechText {
        guard !entries.isEmpty else { return SpeechText(verbatim: text) }
        let characters = Array(text)
        let nsText = text as NSString
        var utf16Offsets: [Int] = []
        var offset = 0
        for character in characters {
            utf16Offsets.append(offset)
            offset += character.utf16.count
        }
        utf16Offsets.append(offset)
        var parts: [(postedCount: Int, spoken: String, verbatim: Bool)] = []
        var index = 0
        while index < characters.count {
            if let (end, spoken) = match(characters, nsText, utf16Offsets, at: index) {
                parts.append((String(characters[index..<end]).unicodeScalars.count, spoken, false))
                index = max(end, index + 1)
            } else {
                parts.append((characters[index].unicodeScalars.count, String(characters[index]), true))
                index += 1
            }
        }
        return SpeechText(posted: text, parts: parts)
    }

    private func match(
        _ characters: [Character], _ text: NSString, _ utf16Offsets: [Int], at index: Int
    ) -> (end: Int, spoken: String)? {
        let startsWord = index == 0 || !(characters[index - 1].isLetter || characters[index - 1].isNumber)
        for entry in entries {
            switch entry.match {
            case .word(let word):
                let letters = Array(word)
                let end = index + letters.count
                guard startsWord, end <= characters.count,
                    String(characters[index..<end]).lowercased() == word.lowercased(),
                    end == characters.count || !(characters[end].isLetter || characters[end].isNumber)
                else { continue }
                return (end, entry.replacement)
            case .pattern(let regex):
                let start = utf16Offsets[index]
                let range = NSRange(location: start, length: text.length - start)
                guard let found = regex.firstMatch(in: text as String, options: [.anchored], range: range),
                    found.range.length > 0,
                    let end = utf16Offsets.firstIndex(of: found.range.location + found.range.length)
                else { continue }
                let spoken = regex.replacementString(
                    for: found, in: text as String, offset: 0, template: entry.replacement)
                return (end, spoken)
            }
        }
        return nil
    }
}
