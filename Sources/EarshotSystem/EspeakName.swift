import CEarshot

/// The rules a voice or variant name must follow before Earshot hands it to espeak-ng.
///
/// Voice files are untrusted input, and espeak-ng 1.51 does not defend itself against odd names: a
/// variant's name used as a voice (`f3`, `klatt`) crashes it, a variant name of 37 characters or more
/// overflows a fixed buffer, and `en-us+../../x` makes it read any file as a variant. So a name is
/// checked here first: plain ASCII letters, digits, `-` and `_`, and a length bound. Whether it is
/// *known* (espeak-ng's voice list, the data folder's variants) is checked by ``EspeakSynthesizer``.
public enum EspeakName {
    /// Which part of a voice a name is.
    public enum Kind: String, Equatable, Sendable {
        /// The espeak-ng voice (the voice file's `espeak` line).
        case voice
        /// The variant after `+` (the voice file's `variant` line).
        case variant
    }

    /// Why a name is refused before it reaches espeak-ng.
    public enum Problem: Equatable, Sendable, CustomStringConvertible {
        /// The name is empty.
        case empty
        /// The name is longer than `limit` characters.
        case tooLong(limit: Int)
        /// The name contains a character outside letters, digits, `-` and `_`.
        case disallowedCharacter(Character)

        public var description: String {
            switch self {
            case .empty: return "the name is empty"
            case .tooLong(let limit): return "names are at most \(limit) characters"
            case .disallowedCharacter(let character):
                let shown =
                    character.unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0.value < 0x20 }
                    ? character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined()
                    : "'\(character)'"
                return "\(shown) is not allowed (only ASCII letters, digits, '-' and '_')"
            }
        }
    }

    /// The longest name of each kind espeak-ng is given.
    public static func maximumLength(of kind: Kind) -> Int {
        switch kind {
        case .voice: return Int(EARSHOT_VOICE_NAME_MAX)
        case .variant: return Int(EARSHOT_VARIANT_NAME_MAX)
        }
    }

    /// What is wrong with `name` as a name of this kind, or nil when it may be given to espeak-ng.
    public static func problem(with name: String, as kind: Kind) -> Problem? {
        if name.isEmpty { return .empty }
        if let bad = name.first(where: { !isAllowed($0) }) { return .disallowedCharacter(bad) }
        if name.utf8.count > maximumLength(of: kind) { return .tooLong(limit: maximumLength(of: kind)) }
        return nil
    }

    private static func isAllowed(_ character: Character) -> Bool {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else { return false }
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_": return true
        default: return false
        }
    }
}
