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
        var search = Search(program: program, textCount: text.count)
        if search.add(0, at: 0) { return true }
        for position in text.indices {
            search.advance()
            let scalar = text[position]
            for pc in search.current {
                let advances: Bool
                switch program[pc] {
                case .scalar(let expected): advances = scalar == expected
                case .member(let set): advances = set.contains(scalar)
                case .any: advances = true
                default: advances = false
                }
                if advances, search.add(pc + 1, at: position + 1) { return true }
            }
            if search.add(0, at: position + 1) { return true }
        }
        return false
    }

    /// The threads of one search: those at the current position, and those collected for the next.
    private struct Search {
        let program: [Instruction]
        let textCount: Int
        private(set) var current: [Int] = []
        private var next: [Int] = []
        /// The generation each instruction was last added in (one generation per position).
        private var mark: [Int]
        private var generation = 1
        /// Instructions still to follow (a loop, not recursion: a long chain of `?` must not exhaust the stack).
        private var pending: [Int] = []

        init(program: [Instruction], textCount: Int) {
            self.program = program
            self.textCount = textCount
            mark = [Int](repeating: 0, count: program.count)
        }

        /// The threads collected become the current ones; the next position starts collecting.
        mutating func advance() {
            swap(&current, &next)
            next.removeAll(keepingCapacity: true)
            generation += 1
        }

        /// Collects the thread at `pc` (following jumps, splits and anchors) at `position`; true when one reaches
        /// `.match`.
        mutating func add(_ pc: Int, at position: Int) -> Bool {
            pending.append(pc)
            while let pc = pending.popLast() {
                guard mark[pc] != generation else { continue }
                mark[pc] = generation
                switch program[pc] {
                case .match:
                    pending.removeAll(keepingCapacity: true)
                    return true
                case .jump(let target): pending.append(target)
                case .split(let first, let second): pending.append(contentsOf: [second, first])
                case .start: if position == 0 { pending.append(pc + 1) }
                case .end: if position == textCount { pending.append(pc + 1) }
                case .scalar, .member, .any: next.append(pc)
                }
            }
            return false
        }
    }
}
