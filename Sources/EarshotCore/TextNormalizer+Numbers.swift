/// Numbers: separators, decimals, negatives, percentages, ordinals, ranges, `K`/`M`/`B` suffixes, units.
extension TextNormalizer {
    /// A number as written: digits with optional `,` groups of three, and an optional decimal part.
    struct NumberToken {
        /// The whole part's digits without separators, as written otherwise (leading zeros kept).
        var whole: String
        /// The digits after the decimal point, if any.
        var fraction: String?
        /// One past the number's last character.
        var end: Int

        /// The number as the synthesizer reads it well: no separators ("1234.5").
        var plain: String { whole + (fraction.map { "." + $0 } ?? "") }
        /// True when it is exactly one (so units take their singular).
        var isOne: Bool { Int(whole) == 1 && fraction == nil }
        /// The whole part's value, when it fits.
        var value: Int? { Int(whole) }
    }

    /// The number starting at `index`, if a digit is there.
    static func number(_ characters: [Character], at index: Int) -> NumberToken? {
        func isDigit(_ position: Int) -> Bool { position < characters.count && characters[position].isASCIIDigit }
        guard isDigit(index) else { return nil }
        var end = index
        while isDigit(end) { end += 1 }
        var whole = String(characters[index..<end])
        // Thousands separators: only groups of exactly three digits after a first group of one to three.
        if end - index <= 3 {
            while end < characters.count, characters[end] == ",", isDigit(end + 1), isDigit(end + 2),
                isDigit(end + 3), !isDigit(end + 4)
            {
                whole += String(characters[(end + 1)...(end + 3)])
                end += 4
            }
        }
        var fraction: String?
        if end < characters.count, characters[end] == ".", isDigit(end + 1) {
            var fractionEnd = end + 1
            while isDigit(fractionEnd) { fractionEnd += 1 }
            fraction = String(characters[(end + 1)..<fractionEnd])
            end = fractionEnd
        }
        return NumberToken(whole: whole, fraction: fraction, end: end)
    }

    /// True when `index` is past the end or not a letter or digit: a token ends there.
    static func isTokenEnd(_ characters: [Character], _ index: Int) -> Bool {
        index >= characters.count || !(characters[index].isLetter || characters[index].isNumber)
    }

    /// `5-10`, `5–10` → "5 to 10": two numbers of at most four digits joined by a hyphen or en dash.
    func range(_ characters: [Character], at index: Int) -> Rewrite? {
        guard let first = Self.number(characters, at: index), first.whole.count <= 4, first.end < characters.count,
            characters[first.end] == "-" || characters[first.end] == "–",
            let second = Self.number(characters, at: first.end + 1), second.whole.count <= 4,
            Self.isTokenEnd(characters, second.end)
        else { return nil }
        // `555-12-34` is a code, not a range: no hyphenated number before or after.
        if index >= 2, characters[index - 1] == "-", characters[index - 2].isASCIIDigit { return nil }
        if second.end + 1 < characters.count, characters[second.end] == "-", characters[second.end + 1].isASCIIDigit {
            return nil
        }
        return Rewrite(end: second.end, spoken: "\(first.plain) \(language.words.to) \(second.plain)")
    }

    /// `21st`, `2nd`, `100th` → "twenty-first", "second", "one hundredth".
    func ordinal(_ characters: [Character], at index: Int) -> Rewrite? {
        guard let number = Self.number(characters, at: index), number.fraction == nil, let value = number.value,
            number.end + 2 <= characters.count
        else { return nil }
        let suffix = String(characters[number.end..<number.end + 2]).lowercased()
        guard ["st", "nd", "rd", "th"].contains(suffix), Self.isTokenEnd(characters, number.end + 2) else {
            return nil
        }
        return Rewrite(end: number.end + 2, spoken: language.ordinalWords(value))
    }

    /// A number, with what follows it: `45%` → "45 percent", `1.2K` → "1.2 thousand", `5 km` → "5 kilometers",
    /// `5 €` → "5 euros", `-5` → "minus 5", `1,234` → "1234".
    func number(_ characters: [Character], at index: Int) -> Rewrite? {
        var start = index
        var sign = ""
        if characters[index] == "-" || characters[index] == "−" {
            guard index + 1 < characters.count, characters[index + 1].isASCIIDigit else { return nil }
            sign = language.words.minus + " "
            start += 1
        }
        guard let number = Self.number(characters, at: start) else { return nil }
        let end = number.end
        if end < characters.count {
            let next = characters[end]
            if next == "%" { return Rewrite(end: end + 1, spoken: sign + number.plain + " " + language.words.percent) }
            if let word = language.words.suffixes[next], Self.isTokenEnd(characters, end + 1) {
                return Rewrite(end: end + 1, spoken: sign + number.plain + " " + word)
            }
        }
        let afterSpace = end < characters.count && characters[end] == " " ? end + 1 : end
        if let currency = currencyAfter(characters, at: afterSpace) {
            return Rewrite(end: currency.end, spoken: sign + amount(number, currency.currency))
        }
        if let unit = unitAfter(characters, at: afterSpace) {
            let word = number.isOne ? unit.unit.one : unit.unit.many
            return Rewrite(end: unit.end, spoken: sign + number.plain + " " + word)
        }
        return Rewrite(end: end, spoken: sign + number.plain)
    }

    /// `#3` → "number 3".
    func numberSign(_ characters: [Character], at index: Int) -> Rewrite? {
        guard characters[index] == "#", let number = Self.number(characters, at: index + 1) else { return nil }
        return Rewrite(end: number.end, spoken: language.words.number + " " + number.plain)
    }

    /// The unit written at `index` (the longest that fits), ending a token.
    func unitAfter(_ characters: [Character], at index: Int) -> (unit: SpeechLanguage.Unit, end: Int)? {
        var best: (unit: SpeechLanguage.Unit, end: Int)?
        for unit in language.units {
            let written = Array(unit.written)
            let end = index + written.count
            guard end <= characters.count, Array(characters[index..<end]) == written,
                Self.isTokenEnd(characters, end) || unit.written.last?.isLetter == false
            else { continue }
            if end > (best?.end ?? 0) { best = (unit, end) }
        }
        return best
    }
}

extension Character {
    /// `0`…`9` only (not other scripts' digits or fractions).
    var isASCIIDigit: Bool { isASCII && isNumber }
}
