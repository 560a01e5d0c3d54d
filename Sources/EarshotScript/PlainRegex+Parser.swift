extension PlainRegex {
    /// A parsed pattern.
    indirect enum Node {
        case instruction(Instruction)
        case sequence([Node])
        case alternation([Node])
        /// `node` at least `minimum` times, at most `maximum` (unbounded when nil).
        case repetition(Node, minimum: Int, maximum: Int?)
    }

    /// Reads a pattern of the subset; every method answers nil for anything outside it.
    struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0
        /// Set when the pattern uses `\s`, `\w`, `\S` or `\W`.
        var readsProperties = false

        /// Deeper nesting, or larger counts, are left to ICU.
        static let maximumDepth = 32
        static let maximumCount = 100

        var atEnd: Bool { index == scalars.count }
        private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        private mutating func next() -> Unicode.Scalar? {
            guard let scalar = peek else { return nil }
            index += 1
            return scalar
        }

        private mutating func accept(_ scalar: Unicode.Scalar) -> Bool {
            guard peek == scalar else { return false }
            index += 1
            return true
        }

        /// Branches separated by `|`.
        mutating func alternation(depth: Int) -> Node? {
            guard depth <= Self.maximumDepth else { return nil }
            var branches: [Node] = []
            repeat {
                guard let branch = sequence(depth: depth) else { return nil }
                branches.append(branch)
            } while accept("|")
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        private mutating func sequence(depth: Int) -> Node? {
            var items: [Node] = []
            while let scalar = peek, scalar != "|", scalar != ")" {
                guard let item = quantified(depth: depth) else { return nil }
                items.append(item)
            }
            return .sequence(items)
        }

        /// An atom and its quantifier, if any.
        private mutating func quantified(depth: Int) -> Node? {
            switch peek {
            case "^":
                index += 1
                return isQuantifier(peek) ? nil : .instruction(.start)
            case "$":
                index += 1
                return isQuantifier(peek) ? nil : .instruction(.end)
            default: break
            }
            guard let atom = atom(depth: depth) else { return nil }
            let bounds: (minimum: Int, maximum: Int?)
            if accept("*") {
                bounds = (0, nil)
            } else if accept("+") {
                bounds = (1, nil)
            } else if accept("?") {
                bounds = (0, 1)
            } else if accept("{") {
                guard let counted = counts() else { return nil }
                bounds = counted
            } else {
                return atom
            }
            // Lazy, possessive and repeated quantifiers are left to ICU.
            guard !isQuantifier(peek) else { return nil }
            return .repetition(atom, minimum: bounds.minimum, maximum: bounds.maximum)
        }

        private func isQuantifier(_ scalar: Unicode.Scalar?) -> Bool {
            scalar == "*" || scalar == "+" || scalar == "?" || scalar == "{"
        }

        /// `n}`, `n,}` or `n,m}` after a `{`; the index is left after the `}`.
        private mutating func counts() -> (minimum: Int, maximum: Int?)? {
            guard let minimum = number() else { return nil }
            if accept("}") { return (minimum, minimum) }
            guard accept(",") else { return nil }
            if accept("}") { return (minimum, nil) }
            guard let maximum = number(), maximum >= minimum, accept("}") else { return nil }
            return (minimum, maximum)
        }

        private mutating func number() -> Int? {
            var value = 0
            var digits = 0
            while let scalar = peek, ("0"..."9").contains(scalar) {
                value = value * 10 + Int(scalar.value - 0x30)
                digits += 1
                index += 1
                guard value <= Self.maximumCount else { return nil }
            }
            return digits > 0 ? value : nil
        }

        private mutating func atom(depth: Int) -> Node? {
            guard let scalar = next() else { return nil }
            switch scalar {
            case "(":
                if accept("?") { guard accept(":") else { return nil } }
                guard let inner = alternation(depth: depth + 1), accept(")") else { return nil }
                return inner
            case ".": return .instruction(.any)
            case "[": return bracketed().map { .instruction(.member($0)) }
            case "\\":
                guard let escaped = next() else { return nil }
                if let set = classEscape(escaped, negatable: true) { return .instruction(.member(set)) }
                guard Self.isASCIIPunctuation(escaped.value) else { return nil }
                return .instruction(.scalar(escaped.value))
            case "*", "+", "?", "{", "}", "]", ")", "|": return nil
            default:
                return PlainRegex.plain(scalar, readsProperties: false).map { .instruction(.scalar($0)) }
            }
        }

        /// `\d`, `\s`, `\w` (and, outside brackets, `\D`, `\S`, `\W`).
        private mutating func classEscape(_ letter: Unicode.Scalar, negatable: Bool) -> CharacterClass? {
            var set = CharacterClass()
            switch letter {
            case "d", "D": set.digits = true
            case "s", "S": set.spaces = true
            case "w", "W": set.wordCharacters = true
            default: return nil
            }
            if letter != "d", letter != "D" { readsProperties = true }
            if letter.properties.isUppercase {
                guard negatable else { return nil }
                set.negated = true
            }
            return set
        }

        /// A class after its `[`: ASCII letters, digits and punctuation, ranges of letters or digits, `\d` `\s` `\w`;
        /// negated classes, set operations and POSIX names are left to ICU.
        private mutating func bracketed() -> CharacterClass? {
            var set = CharacterClass()
            guard peek != "^", peek != "]" else { return nil }
            while let scalar = next() {
                if scalar == "]" { return set }
                let low: UInt32
                if scalar == "\\" {
                    guard let escaped = next() else { return nil }
                    if let escape = classEscape(escaped, negatable: false) {
                        set.digits = set.digits || escape.digits
                        set.spaces = set.spaces || escape.spaces
                        set.wordCharacters = set.wordCharacters || escape.wordCharacters
                        continue
                    }
                    guard Self.isASCIIPunctuation(escaped.value), peek != "-" else { return nil }
                    low = escaped.value
                } else {
                    guard Self.isClassLiteral(scalar.value) else { return nil }
                    low = scalar.value
                }
                guard accept("-") else {
                    set.ranges.append(low...low)
                    continue
                }
                guard let high = next(), Self.isASCIIAlphanumeric(low), Self.isASCIIAlphanumeric(high.value),
                    low <= high.value
                else { return nil }
                set.ranges.append(low...high.value)
            }
            return nil
        }

        static func isASCIIAlphanumeric(_ value: UInt32) -> Bool {
            PlainRegex.isASCIIWordCharacter(value) && value != 0x5F
        }

        static func isASCIIPunctuation(_ value: UInt32) -> Bool {
            (0x21...0x7E).contains(value) && !isASCIIAlphanumeric(value)
        }

        /// Characters a class may hold unescaped.
        static func isClassLiteral(_ value: UInt32) -> Bool {
            isASCIIAlphanumeric(value) || "!\"#%',./;<=>@_`~".unicodeScalars.contains { $0.value == value }
        }
    }

    /// Appends `node`'s instructions; false when the program would grow past 10,000 instructions.
    static func emit(_ node: Node, into program: inout [Instruction]) -> Bool {
        guard program.count < 10_000 else { return false }
        switch node {
        case .instruction(let instruction):
            program.append(instruction)
        case .sequence(let items):
            for item in items where !emit(item, into: &program) { return false }
        case .alternation(let branches):
            var jumps: [Int] = []
            for branch in branches.dropLast() {
                let split = program.count
                program.append(.split(split + 1, -1))
                guard emit(branch, into: &program) else { return false }
                jumps.append(program.count)
                program.append(.jump(-1))
                program[split] = .split(split + 1, program.count)
            }
            guard let last = branches.last, emit(last, into: &program) else { return false }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repetition(let inner, let minimum, let maximum):
            for _ in 0..<minimum where !emit(inner, into: &program) { return false }
            if let maximum {
                var exits: [Int] = []
                for _ in minimum..<maximum {
                    exits.append(program.count)
                    program.append(.split(program.count + 1, -1))
                    guard emit(inner, into: &program) else { return false }
                }
                for exit in exits { program[exit] = .split(exit + 1, program.count) }
            } else {
                let loop = program.count
                program.append(.split(loop + 1, -1))
                guard emit(inner, into: &program) else { return false }
                program.append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
        return program.count < 10_000
    }
}
