import EarshotCore
import Testing

@Suite struct TextNormalizerTests {
    /// Posted text → the words given to the synthesizer, at the default settings (US English, punctuation some).
    static let table: [(posted: String, spoken: String)] = [
        // Currency
        ("$12.00", "12 dollars"),
        ("$61.99", "61 dollars and 99 cents"),
        ("Shipping $12.00. Total $61.99.", "Shipping 12 dollars. Total 61 dollars and 99 cents."),
        ("$1.00", "1 dollar"),
        ("$1.01", "1 dollar and 1 cent"),
        ("$0.99", "99 cents"),
        ("$00.00", "0 dollars"),
        ("€5", "5 euros"),
        ("5 €", "5 euros"),
        ("£3.50", "3 pounds and 50 pence"),
        ("-$3", "minus 3 dollars"),
        ("$1,299", "1299 dollars"),
        ("Pay $12.00", "Pay 12 dollars"),
        ("$2.5", "2.5 dollars"),
        // Numbers
        ("1,234,567", "1234567"),
        ("3.50", "3.50"),
        ("-5 degrees", "minus 5 degrees"),
        ("45%", "45 percent"),
        ("12.5%", "12.5 percent"),
        ("1st", "first"),
        ("2nd place", "second place"),
        ("3rd", "third"),
        ("21st", "twenty-first"),
        ("100th", "one hundredth"),
        ("112th", "one hundred twelfth"),
        ("5-10", "5 to 10"),
        ("5–10 items", "5 to 10 items"),
        ("555-12-34", "555 12 34"),
        ("1.2K", "1.2 thousand"),
        ("3M views", "3 million views"),
        ("#3", "number 3"),
        ("Order 1042.", "Order 1042."),
        ("1,2,3", "1,2,3"),
        // Times and dates
        ("11:59", "11 59"),
        ("3:05 PM", "3 oh 5 P M"),
        ("3:05pm", "3 oh 5 P M"),
        ("11:00 a.m.", "11 A M"),
        ("12:00", "12 o'clock"),
        ("00:01:07", "1 minute 7 seconds"),
        ("00:00:00", "0 seconds"),
        ("01:00:05", "1 hour 5 seconds"),
        ("02:30:00", "2 hours 30 minutes"),
        ("Arrives in, 11:42", "Arrives in, 11 42"),
        ("12/25/2026", "December 25, 2026"),
        ("2026-12-01", "December 1, 2026"),
        ("1/2/26", "January 2, 26"),
        // Units and abbreviations
        ("5 km", "5 kilometers"),
        ("1 km", "1 kilometer"),
        ("2.5kg", "2.5 kilograms"),
        ("3 min", "3 minutes"),
        ("80 °C", "80 degrees Celsius"),
        ("Steep for 3 minutes at 80 °C.", "Steep for 3 minutes at 80 degrees Celsius."),
        ("60 mph", "60 miles per hour"),
        ("approx. 5", "approximately 5"),
        ("e.g. tea", "for example tea"),
        ("Qty 2", "quantity 2"),
        ("OK", "okay"),
        // Acronyms
        ("CC", "C C"),
        ("Send SMS", "Send S M S"),
        ("NASA", "NASA"),
        ("HTML", "H T M L"),
        // Emoji and symbols
        ("✓ Saved", "check mark Saved"),
        ("Done ✓", "Done check mark"),
        ("✕", "multiplication x"),
        ("★★★", "black star black star black star"),
        ("Next →", "Next right arrow"),
        ("Tea • Coffee", "Tea bullet Coffee"),
        ("⚠️ Low battery", "warning Low battery"),
        ("Salt & Pepper", "Salt and Pepper"),
        ("👍", "thumbs up"),
        // Punctuation at the default level (some)
        ("Hello, world.", "Hello, world."),
        ("\"Quoted\"", "Quoted"),
        ("(optional)", "optional"),
        ("a/b", "a slash b"),
        ("user@example", "user at example"),
        ("don't", "don't"),
        ("e-mail", "e-mail"),
        ("<b>Bold</b>", "less than b greater than Bold less than slash b greater than"),
        ("[[h@l]]", "h at l"),
        ("Results updated", "Results updated"),
        ("", ""),
    ]

    @Test(arguments: table)
    func postedTextIsSpokenAsAScreenReaderSaysIt(_ row: (posted: String, spoken: String)) {
        #expect(TextNormalizer().spoken(row.posted) == row.spoken)
    }

    @Test func theTableHasAtLeastSixtyRows() {
        #expect(Self.table.count >= 60)
    }

    static let levels: [(level: PunctuationLevel, posted: String, spoken: String)] = [
        (.none, "a/b", "a b"),
        (.none, "#tag", "tag"),
        (.none, "Hello, world.", "Hello, world."),
        (.some, "#tag", "number tag"),
        (.all, "Hello, world.", "Hello comma, world period."),
        (.all, "(optional)", "left paren optional right paren"),
        (.all, "e-mail", "e dash mail"),
        (.all, "\"Hi\"", "quote Hi quote"),
    ]

    @Test(arguments: levels)
    func thePunctuationLevelDecidesWhichMarksAreNamed(_ row: (level: PunctuationLevel, posted: String, spoken: String))
    {
        var settings = SpeechTextSettings()
        settings.punctuation = row.level
        #expect(TextNormalizer(settings: settings).spoken(row.posted) == row.spoken)
    }

    @Test func settingsChangeTheUncertainChoices() {
        var settings = SpeechTextSettings()
        settings.readsZeroCents = true
        settings.spellsAcronyms = false
        settings.readsClockDurations = false
        settings.monthFirstDates = false
        let normalizer = TextNormalizer(settings: settings)
        #expect(normalizer.spoken("$12.00") == "12 dollars and 0 cents")
        #expect(normalizer.spoken("CC") == "CC")
        #expect(normalizer.spoken("00:01:07") == "0 oh 1 and 7 seconds")
        #expect(normalizer.spoken("1/2/2026") == "February 1, 2026")
        let standard = TextNormalizer()
        #expect(standard.spoken("$12.00") == "12 dollars")
        #expect(standard.spoken("1/2/2026") == "January 2, 2026")
    }

    @Test func spokenWordsMapBackToThePostedText() {
        let text = TextNormalizer().speechText(for: "Shipping $12.00. Total")
        #expect(text.spoken == "Shipping 12 dollars. Total")
        // "12" and "dollars" both come from "$12.00" (posted scalars 9..<15); "Total" keeps its own place.
        #expect(text.postedRange(ofSpoken: 9..<11) == 9..<15)
        #expect(text.postedRange(ofSpoken: 12..<19) == 9..<15)
        #expect(text.postedRange(ofSpoken: 0..<8) == 0..<8)
        #expect(text.postedRange(ofSpoken: 21..<26) == 17..<22)
        // The offsets word alignment reads espeak-ng's marks through: both spoken words land on `$12.00`.
        let mapping = text.mapping
        #expect(mapping.postedOffsets.count == text.spoken.unicodeScalars.count + 1)
        #expect([0, 9, 12, 21].map(mapping.postedOffset) == [0, 9, 9, 17])
        #expect(mapping.postedOffset(text.spoken.unicodeScalars.count) == 22)
    }

    @Test func unchangedTextIsOneVerbatimPiece() {
        let text = TextNormalizer().speechText(for: "Results updated")
        #expect(!text.isChanged)
        #expect(text.pieces.count == 1)
        #expect(text.postedRange(ofSpoken: 8..<15) == 8..<15)
    }

    @Test func numberWordsCoverLargeNumbers() {
        let english = SpeechLanguage.usEnglish
        #expect(english.cardinalWords(0) == "zero")
        #expect(english.cardinalWords(1_000_021) == "one million twenty-one")
        #expect(english.ordinalWords(40) == "fortieth")
        #expect(english.ordinalWords(1000) == "one thousandth")
    }
}
