/// The words and tables one language's text rules use; the rules themselves (`TextNormalizer`) are shared.
///
/// A new language is a new value of this type (see `SpeechLanguage+English.swift`) registered in `all`.
public struct SpeechLanguage: Sendable {
    /// A currency: its symbols and the words for its units.
    public struct Currency: Sendable {
        /// Symbols written for it (`$`, `US$`).
        public var symbols: [String]
        /// The main unit, singular and plural ("dollar", "dollars").
        public var major: (one: String, many: String)
        /// The hundredth unit, singular and plural ("cent", "cents").
        public var minor: (one: String, many: String)
    }

    /// A unit written after a number (`km`), singular and plural.
    public struct Unit: Sendable {
        /// How it is written.
        public var written: String
        /// The word for one.
        public var one: String
        /// The word for any other amount.
        public var many: String
    }

    /// The language's code, as voice profiles name it (`en-us`).
    public var code: String
    /// Currencies by symbol.
    public var currencies: [Currency]
    /// Units by how they are written (matched exactly, longest first).
    public var units: [Unit]
    /// Abbreviations by how they are written (exact, with their dot) → what is said.
    public var abbreviations: [String: String]
    /// Whole words always said another way (`OK` → "okay").
    public var wordReplacements: [String: String]
    /// Emoji and symbols by their names (the grapheme without variation selectors).
    public var symbolNames: [Character: String]
    /// Punctuation marks by their names (level `all`).
    public var punctuationNames: [Character: String]
    /// The marks named at level `some` (the rest only pause or are silent).
    public var someLevelMarks: Set<Character>
    /// Marks that make a pause and are passed on as they are at levels `none` and `some`.
    public var pauseMarks: Set<Character>
    /// Month names, January first.
    public var months: [String]
    /// Number words 0...19.
    public var smallNumbers: [String]
    /// Tens words for 20, 30 … 90.
    public var tens: [String]
    /// "hundred", "thousand", "million", "billion".
    public var scales: (hundred: String, thousand: String, million: String, billion: String)
    /// Ordinal forms of number words that do not just add the regular ending.
    public var ordinalWords: [String: String]
    /// How the last number word becomes ordinal otherwise: words ending in `from` swap it for `to` ("twenty" →
    /// "twentieth"), others add `regular` ("four" → "fourth").
    public var ordinalEndings: (from: String, to: String, regular: String)
    /// Small words the rules put between numbers and units.
    public var words: Words

    /// The connecting words of the rules.
    public struct Words: Sendable {
        /// "minus" before a negative number.
        public var minus: String
        /// "percent".
        public var percent: String
        /// "to" in a range.
        public var to: String
        /// "and" between dollars and cents.
        public var and: String
        /// "oh" for a leading zero in minutes ("3 oh 5").
        public var oh: String
        /// "o'clock".
        public var oclock: String
        /// "number" for `#3`.
        public var number: String
        /// Duration units singular and plural: hour, minute, second.
        public var hour: (one: String, many: String)
        public var minute: (one: String, many: String)
        public var second: (one: String, many: String)
        /// "A M", "P M" as spoken.
        public var am: String
        public var pm: String
        /// Number suffixes `K`, `M`, `B`.
        public var suffixes: [Character: String]
    }

    /// Every language Earshot has rules for.
    public static let all: [SpeechLanguage] = [.usEnglish]

    /// The language with `code` (case-insensitive), if there is one.
    public static func named(_ code: String) -> SpeechLanguage? {
        all.first { $0.code == code.lowercased() }
    }

    /// The words for a whole number, 0 up to billions ("twenty-one").
    public func cardinalWords(_ number: Int) -> String {
        if number < 0 { return words.minus + " " + cardinalWords(-number) }
        if number < 20 { return smallNumbers[number] }
        if number < 100 {
            let rest = number % 10
            return tens[number / 10 - 2] + (rest == 0 ? "" : "-" + smallNumbers[rest])
        }
        let steps: [(Int, String)] = [
            (1_000_000_000, scales.billion), (1_000_000, scales.million), (1000, scales.thousand),
            (100, scales.hundred),
        ]
        for (size, name) in steps where number >= size {
            let rest = number % size
            return cardinalWords(number / size) + " " + name + (rest == 0 ? "" : " " + cardinalWords(rest))
        }
        return String(number)
    }

    /// The ordinal words for a number ("twenty-first", "one hundredth").
    public func ordinalWords(_ number: Int) -> String {
        let cardinal = cardinalWords(number)
        // The last word (after a space or hyphen) takes the ordinal form.
        let cut = cardinal.lastIndex { $0 == " " || $0 == "-" }.map { cardinal.index(after: $0) } ?? cardinal.startIndex
        let head = String(cardinal[..<cut])
        let last = String(cardinal[cut...])
        if let irregular = ordinalWords[last] { return head + irregular }
        let endings = ordinalEndings
        if last.hasSuffix(endings.from) { return head + last.dropLast(endings.from.count) + endings.to }
        return head + last + endings.regular
    }
}
