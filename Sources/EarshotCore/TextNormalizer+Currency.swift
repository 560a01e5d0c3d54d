/// Prices: `$12.00` → "12 dollars", `$61.99` → "61 dollars and 99 cents", `€5` → "5 euros", `-$3` → "minus 3
/// dollars", `5 €` → "5 euros".
extension TextNormalizer {
    /// A currency symbol before a number, optionally after a minus sign.
    func currency(_ characters: [Character], at index: Int) -> Rewrite? {
        var start = index
        var sign = ""
        if characters[index] == "-" || characters[index] == "−" {
            sign = language.words.minus + " "
            start += 1
        }
        guard let symbol = currencyAfter(characters, at: start), let number = Self.number(characters, at: symbol.end)
        else { return nil }
        return Rewrite(end: number.end, spoken: sign + amount(number, symbol.currency))
    }

    /// The currency whose symbol is written at `index`, and where the symbol ends.
    func currencyAfter(_ characters: [Character], at index: Int) -> (currency: SpeechLanguage.Currency, end: Int)? {
        for currency in language.currencies {
            for symbol in currency.symbols {
                let written = Array(symbol)
                let end = index + written.count
                if end <= characters.count, Array(characters[index..<end]) == written { return (currency, end) }
            }
        }
        return nil
    }

    /// An amount in words: whole units, then cents when there are two decimal digits (zero cents only with
    /// `readsZeroCents`); any other decimal part is read as a decimal number of units.
    func amount(_ number: NumberToken, _ currency: SpeechLanguage.Currency) -> String {
        let whole = String(number.whole.drop { $0 == "0" }).isEmpty ? "0" : String(number.whole.drop { $0 == "0" })
        guard let fraction = number.fraction, fraction.count == 2, let cents = Int(fraction) else {
            let plain = number.fraction.map { whole + "." + $0 } ?? whole
            return plain + " " + (plain == "1" ? currency.major.one : currency.major.many)
        }
        let major = whole + " " + (whole == "1" ? currency.major.one : currency.major.many)
        if cents == 0 && !settings.readsZeroCents { return major }
        let minor = "\(cents) " + (cents == 1 ? currency.minor.one : currency.minor.many)
        if whole == "0" && cents != 0 { return minor }
        return major + " " + language.words.and + " " + minor
    }
}
