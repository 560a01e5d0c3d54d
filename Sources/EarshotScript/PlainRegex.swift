/// A check's regular expression, when it stays inside the subset scripts use, matched case-insensitively without
/// ICU.
///
/// The subset: literal characters, `.`, `\d` `\s` `\w` and their capitals, escaped punctuation (`\.`, `\(`),
/// classes of ASCII letters, digits and punctuation (`[a-z0-9,]`, not negated), groups (`( )`, `(?: )`) with
/// `|`, the anchors `^` and `$`, and the greedy quantifiers `*` `+` `?` `{n}` `{n,}` `{n,m}`.
///
/// Why it exists: the first pattern ICU compiles in a process builds ICU's tables of Unicode sets, about 2 ms of
/// CPU, a tenth of rendering a short script, though most checks' patterns (`"Added to cart"`,
/// `"^\d+ results$"`) need none of it. Whether a pattern matches somewhere in a text does not depend on how the
/// engine searches, so a small automaton answers exactly what ICU answers, wherever both read the text the same
/// way. Where they might not, ICU answers: `init` is nil for a pattern outside the subset (or a literal that
/// changes under case folding, like `ß`), and `matches(in:)` is nil for a text with a line break, a character that
/// changes under case folding, a non-ASCII digit, or, for patterns with `\s` or `\w`, any non-ASCII character.
/// `PlainRegexTests` compares both engines on thousands of generated patterns and texts.
struct PlainRegex: Sendable {
    /// One step of the automaton.
    enum Instruction: Sendable, Equatable {
        /// One text character equal to this one, after ASCII letters are lowered.
        case scalar(UInt32)
        /// One text character in a class.
        case member(CharacterClass)
        /// Any one character (`.`; plain texts have no line breaks).
        case any
        /// Continue at both instructions.
        case split(Int, Int)
        case jump(Int)
        /// `^`: only at the start of the text.
        case start
        /// `$`: only at the end of the text (plain texts end without a line break).
        case end
        case match
    }

    /// A class of characters: `\d`, `\s`, `\w`, a bracketed class, or the complement of one of the first three.
    struct CharacterClass: Sendable, Equatable {
        var ranges: [ClosedRange<UInt32>] = []
        var digits = false
        var spaces = false
        var wordCharacters = false
        var negated = false

        /// Whether `scalar` (a character of a plain text) is in the class, either case of an ASCII letter counting.
        func contains(_ scalar: UInt32) -> Bool {
            negated != (has(scalar) || has(PlainRegex.otherCase(of: scalar)))
        }

        private func has(_ scalar: UInt32) -> Bool {
            if digits, scalar >= 0x30, scalar <= 0x39 { return true }
            if spaces, scalar == 0x20 || scalar == 0x09 { return true }
            if wordCharacters, PlainRegex.isASCIIWordCharacter(scalar) { return true }
            return ranges.contains { $0.contains(scalar) }
        }
    }

    /// The automaton, ending in `.match`.
    let program: [Instruction]
    /// Whether the pattern uses `\s` or `\w` (or their capitals), which ICU defines on Unicode properties.
    let readsProperties: Bool

    /// The pattern compiled, or nil when it is outside the subset (ICU then decides whether it is valid at all).
    init?(_ pattern: String) {
        var parser = Parser(scalars: Array(pattern.unicodeScalars))
        guard !parser.scalars.isEmpty, let tree = parser.alternation(depth: 0), parser.atEnd else { return nil }
        var program: [Instruction] = []
        guard Self.emit(tree, into: &program) else { return nil }
        program.append(.match)
        self.program = program
        readsProperties = parser.readsProperties
    }

    /// Whether the pattern matches somewhere in `text`, ignoring case; nil when ICU might read the text
    /// differently (see the type's discussion), so ICU must answer.
    func matches(in text: String) -> Bool? {
        var scalars: [UInt32] = []
        scalars.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            guard let plain = Self.plain(scalar, readsProperties: readsProperties) else { return nil }
            scalars.append(plain)
        }
        return search(scalars)
    }

    // MARK: Characters

    /// The scalar as the automaton compares it (ASCII letters lowered), nil when ICU must read it.
    static func plain(_ scalar: Unicode.Scalar, readsProperties: Bool) -> UInt32? {
        let value = scalar.value
        switch value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return nil
        case 0x41...0x5A: return value + 0x20
        case 0..<0x80: return value
        default:
            let properties = scalar.properties
            if readsProperties || properties.changesWhenCaseFolded || properties.generalCategory == .decimalNumber {
                return nil
            }
            return value
        }
    }

    /// The other case of an ASCII letter, else the scalar itself.
    static func otherCase(of scalar: UInt32) -> UInt32 {
        switch scalar {
        case 0x41...0x5A: scalar + 0x20
        case 0x61...0x7A: scalar - 0x20
        default: scalar
        }
    }

    static func isASCIIWordCharacter(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: true
        default: false
        }
    }

    // MARK: Search

    /// Runs the automaton over every start position at once (a list of threads per position, no backtracking).
    private func search(_ text: [UInt32]) -> Bool {
        var current: [Int] = []
        var next: [Int] = []
        var mark = [Int](repeating: 0, count: program.count)
        var generation = 1
        if add(0, at: 0, of: text, to: &current, mark: &mark, generation: generation) { return true }
        for position in text.indices {
            generation += 1
            let scalar = text[position]
            for pc in current {
                let advances: Bool
                switch program[pc] {
                case .scalar(let expected): advances = scalar == expected
                case .member(let set): advances = set.contains(scalar)
                case .any: advances = true
                default: advances = false
                }
                if advances, add(pc + 1, at: position + 1, of: text, to: &next, mark: &mark, generation: generation) {
                    return true
                }
            }
            if add(0, at: position + 1, of: text, to: &next, mark: &mark, generation: generation) { return true }
            swap(&current, &next)
            next.removeAll(keepingCapacity: true)
        }
        return false
    }

    /// Adds the thread at `pc` (following jumps, splits and anchors) to `list`; true when it reaches `.match`.
    private func add(
        _ pc: Int, at position: Int, of text: [UInt32], to list: inout [Int], mark: inout [Int], generation: Int
    ) -> Bool {
        guard mark[pc] != generation else { return false }
        mark[pc] = generation
        switch program[pc] {
        case .match: return true
        case .jump(let target):
            return add(target, at: position, of: text, to: &list, mark: &mark, generation: generation)
        case .split(let first, let second):
            return add(first, at: position, of: text, to: &list, mark: &mark, generation: generation)
                || add(second, at: position, of: text, to: &list, mark: &mark, generation: generation)
        case .start:
            return position == 0 && add(pc + 1, at: position, of: text, to: &list, mark: &mark, generation: generation)
        case .end:
            return position == text.count
                && add(pc + 1, at: position, of: text, to: &list, mark: &mark, generation: generation)
        case .scalar, .member, .any:
            list.append(pc)
            return false
        }
    }
}
