/// Times of day, durations and dates.
extension TextNormalizer {
    /// `11:59` → "11 59", `3:05 PM` → "3 oh 5 P M", `12:00` → "12 o'clock", and with `readsClockDurations`
    /// `00:01:07` → "1 minute 7 seconds" (a stopwatch or timer read as the time it shows).
    func time(_ characters: [Character], at index: Int) -> Rewrite? {
        func twoDigits(_ position: Int) -> Int? {
            guard position + 2 <= characters.count, characters[position].isASCIIDigit,
                characters[position + 1].isASCIIDigit
            else { return nil }
            return Int(String(characters[position..<position + 2]))
        }
        var end = index
        while end < characters.count, characters[end].isASCIIDigit, end - index < 2 { end += 1 }
        guard end > index, end < characters.count, characters[end] == ":",
            let hours = Int(String(characters[index..<end])),
            let minutes = twoDigits(end + 1), minutes < 60
        else { return nil }
        end += 3
        var seconds: Int?
        if end < characters.count, characters[end] == ":", let value = twoDigits(end + 1), value < 60 {
            seconds = value
            end += 3
        }
        let period = dayPeriod(characters, at: end)
        guard period != nil || Self.isTokenEnd(characters, end), end >= characters.count || characters[end] != ":"
        else { return nil }
        let words = language.words
        if let seconds, period == nil, settings.readsClockDurations {
            return Rewrite(end: end, spoken: duration(hours: hours, minutes: minutes, seconds: seconds))
        }
        guard hours <= 24 else { return nil }
        var spoken: String
        if minutes == 0 {
            spoken = period == nil ? "\(hours) \(words.oclock)" : "\(hours)"
        } else if minutes < 10 {
            spoken = "\(hours) \(words.oh) \(minutes)"
        } else {
            spoken = "\(hours) \(minutes)"
        }
        if let seconds {
            spoken += " " + words.and + " " + "\(seconds) " + (seconds == 1 ? words.second.one : words.second.many)
        }
        if let period { return Rewrite(end: period.end, spoken: spoken + " " + period.spoken) }
        return Rewrite(end: end, spoken: spoken)
    }

    /// "1 hour 2 minutes 7 seconds", leaving out zero parts ("0 seconds" when all are zero).
    func duration(hours: Int, minutes: Int, seconds: Int) -> String {
        let words = language.words
        var parts: [String] = []
        if hours > 0 { parts.append("\(hours) " + (hours == 1 ? words.hour.one : words.hour.many)) }
        if minutes > 0 { parts.append("\(minutes) " + (minutes == 1 ? words.minute.one : words.minute.many)) }
        if seconds > 0 || parts.isEmpty {
            parts.append("\(seconds) " + (seconds == 1 ? words.second.one : words.second.many))
        }
        return parts.joined(separator: " ")
    }

    /// ` PM`, `am`, ` a.m.` after a time: what is said and where it ends.
    func dayPeriod(_ characters: [Character], at index: Int) -> (spoken: String, end: Int)? {
        let start = index < characters.count && characters[index] == " " ? index + 1 : index
        for (written, spoken) in [
            ("a.m.", language.words.am), ("p.m.", language.words.pm), ("am", language.words.am),
            ("pm", language.words.pm),
        ] {
            let end = start + written.count
            guard end <= characters.count, String(characters[start..<end]).lowercased() == written,
                written.hasSuffix(".") || Self.isTokenEnd(characters, end)
            else { continue }
            return (spoken, end)
        }
        return nil
    }

    /// `12/25/2026` (month first with `monthFirstDates`, else day first) and `2026-12-01` → "December 25, 2026".
    func date(_ characters: [Character], at index: Int) -> Rewrite? {
        func digits(_ position: Int, _ counts: ClosedRange<Int>) -> (value: Int, end: Int)? {
            var end = position
            while end < characters.count, characters[end].isASCIIDigit, end - position < counts.upperBound { end += 1 }
            guard counts.contains(end - position), let value = Int(String(characters[position..<end])) else {
                return nil
            }
            return (value, end)
        }
        let month: Int
        let day: Int
        let year: String
        let end: Int
        if let first = digits(index, 4...4), first.end < characters.count, characters[first.end] == "-",
            let second = digits(first.end + 1, 2...2), second.end < characters.count, characters[second.end] == "-",
            let third = digits(second.end + 1, 2...2)
        {
            (year, month, day, end) = (String(characters[index..<first.end]), second.value, third.value, third.end)
        } else if let first = digits(index, 1...2), first.end < characters.count, characters[first.end] == "/",
            let second = digits(first.end + 1, 1...2), second.end < characters.count, characters[second.end] == "/",
            let third = digits(second.end + 1, 2...4), third.end - second.end - 1 != 3
        {
            (month, day) = settings.monthFirstDates ? (first.value, second.value) : (second.value, first.value)
            (year, end) = (String(characters[(second.end + 1)..<third.end]), third.end)
        } else {
            return nil
        }
        guard (1...12).contains(month), (1...31).contains(day), Self.isTokenEnd(characters, end) else { return nil }
        return Rewrite(end: end, spoken: "\(language.months[month - 1]) \(day), \(year)")
    }
}
