/// Abbreviations, fixed word replacements and acronyms.
extension TextNormalizer {
    /// `approx.` → "approximately", `e.g.` → "for example": the language's abbreviations, written exactly, longest
    /// first, not followed by a letter.
    func abbreviation(_ characters: [Character], at index: Int) -> Rewrite? {
        var best: Rewrite?
        for (written, spoken) in language.abbreviations {
            let letters = Array(written)
            let end = index + letters.count
            guard end <= characters.count, Array(characters[index..<end]) == letters,
                end == characters.count || !characters[end].isLetter,
                end > (best?.end ?? 0)
            else { continue }
            best = Rewrite(end: end, spoken: spoken)
        }
        return best
    }

    /// A whole word: a fixed replacement (`OK` → "okay"), or with `spellsAcronyms` an all-caps word of two to five
    /// letters without a vowel spelled letter by letter (`CC` → "C C", `SMS` → "S M S"); anything else is left
    /// to the main loop, which keeps it.
    func word(_ characters: [Character], at index: Int) -> Rewrite? {
        var end = index
        while end < characters.count, characters[end].isLetter { end += 1 }
        guard end > index, Self.isTokenEnd(characters, end) else { return nil }
        let word = String(characters[index..<end])
        if let replacement = language.wordReplacements[word] { return Rewrite(end: end, spoken: replacement) }
        guard settings.spellsAcronyms, (2...5).contains(word.count),
            word.allSatisfy({ $0.isASCII && $0.isUppercase }), !word.contains(where: { "AEIOU".contains($0) })
        else { return nil }
        return Rewrite(end: end, spoken: word.map(String.init).joined(separator: " "))
    }
}
