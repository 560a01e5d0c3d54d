import EarshotCore

/// The phrases a run made heard, with their voices: what the raw espeak-ng reference of `earshot bench` speaks.
///
/// Written by one child process (`earshot bench --heard-phrases`) and read by another (`earshot bench --raw`),
/// as UTF-8 text, one phrase a line: the voice's espeak-ng name, variant, rate, pitch, volume and word gap,
/// then the text, separated by tabs; a tab, line break or backslash in the text is written `\t`, `\n`, `\\`.
public struct PhraseList: Equatable, Sendable {
    /// One phrase and the voice that speaks it.
    public struct Phrase: Equatable, Sendable {
        /// The text given to espeak-ng (after Earshot's normalization).
        public var text: String
        /// The voice parameters espeak-ng is given.
        public var voice: VoiceProfile

        /// Creates a phrase.
        public init(text: String, voice: VoiceProfile) {
            self.text = text
            self.voice = voice
        }
    }

    /// The phrases, in the order they are spoken.
    public var phrases: [Phrase]

    /// Creates a list.
    public init(_ phrases: [Phrase]) {
        self.phrases = phrases
    }

    /// The file's text.
    public var text: String {
        phrases.map { phrase in
            let voice = phrase.voice
            let fields = [
                voice.espeakVoice, voice.variant ?? "", String(voice.rate), String(voice.pitch), String(voice.volume),
                String(voice.wordGap), Self.escape(phrase.text),
            ]
            return fields.joined(separator: "\t") + "\n"
        }.joined()
    }

    /// Reads a file's text; `path` names the file in errors, with the line.
    public init(parsing text: String, path: String) throws(BenchError) {
        var phrases: [Phrase] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let numbers = fields.count == 7 ? fields[2...5].compactMap { Int($0) } : []
            guard numbers.count == 4, !fields[0].isEmpty, let text = Self.unescape(fields[6]) else {
                throw BenchError(
                    "\(path):\(index + 1): not a phrase line (voice, variant, rate, pitch, volume, word gap and "
                        + "text, separated by tabs)")
            }
            var voice = VoiceProfile.standard
            voice.name = fields[0]
            voice.espeakVoice = fields[0]
            voice.variant = fields[1].isEmpty ? nil : fields[1]
            (voice.rate, voice.pitch, voice.volume, voice.wordGap) = (numbers[0], numbers[1], numbers[2], numbers[3])
            phrases.append(Phrase(text: text, voice: voice))
        }
        self.phrases = phrases
    }

    private static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case "\t": escaped += "\\t"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// nil for a backslash followed by anything but `\`, `t`, `n`, `r`.
    private static func unescape(_ text: String) -> String? {
        var result = ""
        var pending = false
        for character in text {
            if pending {
                switch character {
                case "\\": result += "\\"
                case "t": result += "\t"
                case "n": result += "\n"
                case "r": result += "\r"
                default: return nil
                }
                pending = false
            } else if character == "\\" {
                pending = true
            } else {
                result.append(character)
            }
        }
        return pending ? nil : result
    }
}
