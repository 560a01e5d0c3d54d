import EarshotCore
import Foundation

/// Reads voice profile files (`Voices/<name>.voice`; the format is documented in `Voices/README.md`).
///
/// One setting per line, `key value`; `#` starts a comment line; blank lines are ignored:
///
/// ```
/// espeak en-us            # required: the espeak-ng voice
/// variant f3              # optional: an espeak-ng or Voices/variants/ variant
/// rate 185                # words per minute, 80...449
/// pitch 50                # 0...100
/// volume 100              # 0...200
/// wordgap 0               # extra pause between words, 10 ms units, 0...100
/// description "One line for earshot voices"
/// punctuation some        # none | some | all: how much punctuation is named
/// acronyms spell          # spell | keep: all-caps words without a vowel spelled letter by letter
/// zero-cents off          # on | off: "12 dollars and 0 cents" for $12.00
/// clock-times durations   # durations | times: h:mm:ss read as a stopwatch or as a time of day
/// dates month-first       # month-first | day-first for 1/2/2026
/// ```
public enum VoiceFile {
    /// Every key a voice file may set.
    public static let keys = [
        "espeak", "variant", "rate", "pitch", "volume", "wordgap", "description", "punctuation", "acronyms",
        "zero-cents", "clock-times", "dates",
    ]

    /// The words each text setting accepts; the first is the default.
    public static let textChoices: [String: [String]] = [
        "punctuation": ["some", "none", "all"], "acronyms": ["spell", "keep"], "zero-cents": ["off", "on"],
        "clock-times": ["durations", "times"], "dates": ["month-first", "day-first"],
    ]

    /// Allowed ranges of the integer keys.
    public static let ranges: [String: ClosedRange<Int>] = [
        "rate": VoiceProfile.minimumRate...VoiceProfile.maximumRate, "pitch": 0...100, "volume": 0...200,
        "wordgap": 0...100,
    ]

    /// Reads and parses the file at `path`; the profile is named after the file (without `.voice`).
    public static func load(path: String) throws(VoiceFileError) -> VoiceProfile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw VoiceFileError(path: path, line: 0, column: 0, message: "cannot read the voice file")
        }
        let name = PathText.stem(path)
        return try parse(bytes: [UInt8](data), name: name, path: path)
    }

    /// Parses a voice file's bytes (UTF-8, with or without a byte order mark) into a profile named `name`.
    ///
    /// - Throws: `VoiceFileError`; bytes that are not UTF-8 are reported at the first bad byte.
    public static func parse(bytes: [UInt8], name: String, path: String) throws(VoiceFileError) -> VoiceProfile {
        let text: String
        do throws(SourceText.InvalidByte) {
            text = try SourceText.decode(bytes)
        } catch {
            throw VoiceFileError(
                path: path, line: error.line, column: error.column,
                message: "\(error.message); \(SourceText.InvalidByte.hint)", sourceLine: error.sourceLine)
        }
        return try parse(text, name: name, path: path)
    }

    /// Parses voice file text into a profile named `name`; `path` is only used in errors.
    ///
    /// A leading byte order mark is ignored; lines end at `\n`, `\r\n` or `\r`.
    public static func parse(_ text: String, name: String, path: String) throws(VoiceFileError) -> VoiceProfile {
        var profile = VoiceProfile(name: name, espeakVoice: "")
        var seen: [String: Int] = [:]
        // "\r\n" is one Character in Swift, so split on it explicitly.
        let lines = text.drop(while: { $0 == "\u{FEFF}" })
            .split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        for (index, rawLine) in lines.enumerated() {
            let line = String(rawLine)
            let number = index + 1
            func fail(_ column: Int, _ message: String) -> VoiceFileError {
                VoiceFileError(path: path, line: number, column: column, message: message, sourceLine: line)
            }
            let characters = Array(line)
            var position = 0
            while position < characters.count, characters[position].isWhitespace { position += 1 }
            if position == characters.count || characters[position] == "#" { continue }
            let keyStart = position
            while position < characters.count, !characters[position].isWhitespace { position += 1 }
            let key = String(characters[keyStart..<position])
            while position < characters.count, characters[position].isWhitespace { position += 1 }
            let valueColumn = position + 1
            var value = String(characters[position...])
            guard keys.contains(key) else {
                throw fail(
                    keyStart + 1,
                    "unknown key '\(key)'\(suggestion(for: key)); known keys: \(keys.joined(separator: ", "))")
            }
            if let first = seen[key] { throw fail(keyStart + 1, "duplicate key '\(key)' (first set on line \(first))") }
            seen[key] = number
            if key == "description" {
                value = try quoted(value, column: valueColumn, fail: fail)
                profile.description = value
                continue
            }
            value = stripComment(value)
            if value.isEmpty { throw fail(valueColumn, "'\(key)' needs a value, as in `\(key) \(example(key))`") }
            if value.contains(where: \.isWhitespace) {
                throw fail(valueColumn, "'\(key)' takes one word, found '\(value)'")
            }
            if let choices = textChoices[key] {
                guard choices.contains(value) else {
                    throw fail(
                        valueColumn,
                        "'\(key)' must be \(choices.map { "'\($0)'" }.joined(separator: " or ")), found '\(value)'")
                }
                switch key {
                case "punctuation": profile.text.punctuation = PunctuationLevel(rawValue: value) ?? .some
                case "acronyms": profile.text.spellsAcronyms = value == "spell"
                case "zero-cents": profile.text.readsZeroCents = value == "on"
                case "clock-times": profile.text.readsClockDurations = value == "durations"
                default: profile.text.monthFirstDates = value == "month-first"
                }
            } else if let range = ranges[key] {
                guard let number = Int(value) else {
                    throw fail(valueColumn, "'\(key)' must be a whole number, found '\(value)'")
                }
                guard range.contains(number) else {
                    let unit = key == "rate" ? " words per minute" : ""
                    throw fail(
                        valueColumn,
                        "\(key) \(number) is outside the allowed range \(range.lowerBound)...\(range.upperBound)\(unit)"
                    )
                }
                switch key {
                case "rate": profile.rate = number
                case "pitch": profile.pitch = number
                case "volume": profile.volume = number
                default: profile.wordGap = number
                }
            } else if key == "espeak" {
                profile.espeakVoice = value
            } else {
                profile.variant = value
            }
        }
        if seen["espeak"] == nil {
            throw VoiceFileError(
                path: path, line: 1, column: 1,
                message: "missing required line `espeak <voice>` (for example `espeak en-us`)",
                sourceLine: lines.first.map(String.init) ?? "")
        }
        return profile
    }

    /// The value without a trailing `# comment`.
    private static func stripComment(_ value: String) -> String {
        let uncommented = value.firstIndex(of: "#").map { String(value[..<$0]) } ?? value
        return uncommented.trimmingSpaces()
    }

    /// A `"quoted"` string with `\"` and `\\` escapes, or a bare rest of line.
    private static func quoted(
        _ value: String, column: Int, fail: (Int, String) -> VoiceFileError
    ) throws(VoiceFileError) -> String {
        let characters = Array(value)
        guard characters.first == "\"" else { return value.trimmingSpaces() }
        var result = ""
        var index = 1
        while index < characters.count {
            let character = characters[index]
            if character == "\\", index + 1 < characters.count {
                result.append(characters[index + 1])
                index += 2
                continue
            }
            if character == "\"" {
                var next = index + 1
                while next < characters.count, characters[next].isWhitespace { next += 1 }
                if next < characters.count && characters[next] != "#" {
                    throw fail(column + next, "unexpected text after the closing quote")
                }
                return result
            }
            result.append(character)
            index += 1
        }
        throw fail(column, "unterminated string: add a closing \"")
    }

    private static func example(_ key: String) -> String {
        switch key {
        case "espeak": "en-us"
        case "variant": "f3"
        case "rate": "185"
        case "pitch": "50"
        case "volume": "100"
        case let key where textChoices[key] != nil: textChoices[key]?.first ?? ""
        default: "0"
        }
    }

    private static func suggestion(for key: String) -> String {
        let aliases = ["voice": "espeak", "speed": "rate", "wpm": "rate", "gap": "wordgap", "word_gap": "wordgap"]
        if let alias = aliases[key.lowercased()] { return " (did you mean '\(alias)'?)" }
        if let near = keys.first(where: { Spelling.distance($0, key.lowercased()) <= 2 }) {
            return " (did you mean '\(near)'?)"
        }
        return ""
    }
}
