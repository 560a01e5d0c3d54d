/// Emoji, symbols and punctuation, by the punctuation level.
extension TextNormalizer {
    /// Handles the one character at `index` that is no letter or digit and started no token rule.
    ///
    /// - An emoji or symbol in the language's table is said by its name (`✓` → "check mark"), at every level.
    /// - An apostrophe inside a word (`don't`) is kept; so is a hyphen inside a word (`e-mail`) except at `all`.
    /// - Sentence punctuation (`. , ; : ! ?`) is kept at `none` and `some`, so the synthesizer pauses on it, and
    ///   at `all` is named and kept ("comma,").
    /// - Other marks are named at `all`, named at `some` when they carry meaning (`#`, `@`, `/`, `+` …), and
    ///   otherwise silent (quotes, brackets, dashes).
    /// - Control characters are silent. Anything else (an emoji missing from the table) passes unchanged.
    func symbol(_ characters: [Character], at index: Int, into output: inout Output) {
        let character = characters[index]
        let range = index..<index + 1
        let bare = Character(
            String(
                String.UnicodeScalarView(character.unicodeScalars.filter { $0.value != 0xFE0F && $0.value != 0xFE0E })))
        if let name = language.symbolNames[bare] { return output.rewrite(range, as: name) }
        if character.isWhitespace { return output.keep(range) }
        if character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) {
            return output.rewrite(range, as: "")
        }
        let inWord =
            index > 0 && index + 1 < characters.count && characters[index - 1].isLetter
            && characters[index + 1].isLetter
        if inWord && (character == "'" || character == "’") { return output.keep(range) }
        if inWord && character == "-" && settings.punctuation != .all { return output.keep(range) }
        guard character.isPunctuation || character.isSymbol || language.punctuationNames[character] != nil else {
            return output.keep(range)
        }
        let isPause = language.pauseMarks.contains(character)
        switch settings.punctuation {
        case .all:
            let name = language.punctuationNames[character] ?? ""
            output.rewrite(range, as: isPause ? name + String(character) : name)
        case .some where isPause, .none where isPause:
            output.keep(range)
        case .some where language.someLevelMarks.contains(character):
            output.rewrite(range, as: language.punctuationNames[character] ?? "")
        case .some, .none:
            output.rewrite(range, as: "")
        }
    }
}
