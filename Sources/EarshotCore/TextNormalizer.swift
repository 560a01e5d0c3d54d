/// Turns the text an app posts into the words a screen reader speaks: prices, numbers, times, dates, units,
/// abbreviations, acronyms, emoji and punctuation (the rules, each with an example and where it comes from, are in
/// `docs/speech-text.md`). Pure: no I/O, no clock; the same text and settings always give the same words.
///
/// 1. The posted text is scanned left to right. At the start of a token each rule in `rules` is tried in order
///    (currency before dates before times before ranges before plain numbers, so the longest reading wins); the
///    first that matches rewrites the characters it covers.
/// 2. Where no rule matches, letters and digits pass through unchanged, and every other character is handled by
///    the symbol and punctuation rules of the punctuation level.
/// 3. The result is a `SpeechText`: what to give the synthesizer, and which posted characters each spoken
///    stretch came from.
///
/// The language's words are data (`SpeechLanguage`); every uncertain choice is a `SpeechTextSettings` field.
public struct TextNormalizer: Sendable {
    /// The version of what normalization outputs. Bump it when any rule, table or setting changes the words a
    /// text becomes: phrases cached on disk are keyed by it, so old entries are then never read again.
    public static let version = 1

    /// The settings, usually the voice profile's.
    public var settings: SpeechTextSettings
    /// The language's words and tables.
    public var language: SpeechLanguage

    /// A normalizer for `settings`; an unknown language code falls back to US English (voice files reject one).
    public init(settings: SpeechTextSettings = SpeechTextSettings()) {
        self.settings = settings
        self.language = SpeechLanguage.named(settings.language) ?? .usEnglish
    }

    /// A rewrite of `end - start` posted characters.
    struct Rewrite {
        /// One past the last posted character covered.
        var end: Int
        /// What is said for it.
        var spoken: String
    }

    /// The token rules, in the order they are tried (`allCases` order).
    enum TokenRule: CaseIterable {
        case currency, date, time, range, ordinal, number, numberSign, abbreviation, word
    }

    /// What `rule` makes of the token starting at `index`, or nil when it does not apply there.
    func apply(_ rule: TokenRule, _ characters: [Character], at index: Int) -> Rewrite? {
        switch rule {
        case .currency: currency(characters, at: index)
        case .date: date(characters, at: index)
        case .time: time(characters, at: index)
        case .range: range(characters, at: index)
        case .ordinal: ordinal(characters, at: index)
        case .number: number(characters, at: index)
        case .numberSign: numberSign(characters, at: index)
        case .abbreviation: abbreviation(characters, at: index)
        case .word: word(characters, at: index)
        }
    }

    /// The words spoken for `posted`.
    public func spoken(_ posted: String) -> String { speechText(for: posted).spoken }

    /// `posted` and the words spoken for it, piece by piece.
    public func speechText(for posted: String) -> SpeechText {
        let characters = Array(posted)
        var output = Output(characters: characters)
        var index = 0
        while index < characters.count {
            if Self.isTokenStart(characters, index),
                let rewrite = TokenRule.allCases.lazy.compactMap({ apply($0, characters, at: index) }).first
            {
                output.rewrite(index..<rewrite.end, as: rewrite.spoken)
                index = rewrite.end
                continue
            }
            let character = characters[index]
            if character.isLetter || character.isNumber {
                // The rest of the word or number, as posted (a token start was tried above).
                var end = index + 1
                while end < characters.count, characters[end].isLetter == character.isLetter,
                    characters[end].isNumber == character.isNumber
                {
                    end += 1
                }
                output.keep(index..<end)
                index = end
            } else {
                symbol(characters, at: index, into: &output)
                index += 1
            }
        }
        return SpeechText(posted: posted, parts: output.parts)
    }

    /// True when `index` starts a token: the text's start, or after a character that is no letter or digit.
    static func isTokenStart(_ characters: [Character], _ index: Int) -> Bool {
        index == 0 || !(characters[index - 1].isLetter || characters[index - 1].isNumber)
    }

    /// The spoken text being built.
    struct Output {
        let characters: [Character]
        var parts: [(postedCount: Int, spoken: String, verbatim: Bool)] = []
        /// The last character given to the synthesizer so far.
        var last: Character?

        init(characters: [Character]) { self.characters = characters }

        /// Passes posted characters on unchanged.
        mutating func keep(_ range: Range<Int>) {
            let text = String(characters[range])
            parts.append((text.unicodeScalars.count, text, true))
            last = text.last ?? last
        }

        /// Says `spoken` for the posted characters in `range`, with a space on each side where it would
        /// otherwise run into a neighbouring word.
        mutating func rewrite(_ range: Range<Int>, as spoken: String) {
            if spoken == String(characters[range]) { return keep(range) }
            var text = spoken
            if !text.isEmpty {
                if let last, last.isLetter || last.isNumber { text = " " + text }
                if range.upperBound < characters.count {
                    let next = characters[range.upperBound]
                    if next.isLetter || next.isNumber { text += " " }
                }
            } else if let last, last.isLetter || last.isNumber, range.upperBound < characters.count,
                characters[range.upperBound].isLetter || characters[range.upperBound].isNumber
            {
                // Something silent between two words still keeps them apart.
                text = " "
            }
            let count = String(characters[range]).unicodeScalars.count
            parts.append((count, text, false))
            last = text.last ?? last
        }
    }
}
