/// Sorts a command's words into options and arguments according to its `CommandSignature`.
///
/// The grammar, in the shape of swift-argument-parser:
/// 1. `--` ends options; every later word is positional.
/// 2. `--name value` and `--name=value` set an option; `-n value` and `-nvalue` use its short name;
///    `-abc` clusters short flags.
/// 3. `-h`/`--help` anywhere before `--` asks for help and nothing else is checked.
/// 4. `-` alone and negative numbers (`-5`, `-0.5`) are positional words.
/// 5. Positional words fill the arguments in order; a variadic argument takes what the arguments
///    after it do not need.
///
/// Errors are `UsageError`s naming the offending word.
public enum ArgumentParser {
    /// Parses `words` (the words after the subcommand) for `signature`.
    ///
    /// - Throws: `UsageError`.
    public static func parse(_ words: [String], for signature: CommandSignature) throws -> ParsedArguments {
        var result = ParsedArguments(command: signature.name)
        let options = signature.allOptions
        let optionWords = words.prefix { $0 != "--" }
        if optionWords.contains("--help") || optionWords.contains("-h") {
            result.helpRequested = true
            return result
        }

        var positionals: [String] = []
        var index = 0
        func takeValue(for option: OptionSpec, spelled: String) throws -> String {
            index += 1
            guard index < words.count, !looksLikeOption(words[index], options: options) else {
                throw UsageError("missing value for '\(spelled)'")
            }
            return words[index]
        }
        func record(_ option: OptionSpec, value: String?, spelled: String) throws {
            switch option.kind {
            case .flag:
                if value != nil { throw UsageError("option '\(spelled)' does not take a value") }
                result.flags.insert(option.long)
            case .single:
                if result.optionValues[option.long] != nil {
                    throw UsageError("option '\(spelled)' given more than once")
                }
                result.optionValues[option.long] = [try value ?? takeValue(for: option, spelled: spelled)]
            case .repeated:
                result.optionValues[option.long, default: []].append(
                    try value ?? takeValue(for: option, spelled: spelled))
            }
        }

        while index < words.count {
            let word = words[index]
            if word == "--" {
                positionals += words[(index + 1)...]
                break
            }
            if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
                guard let option = options.first(where: { $0.long == name }) else {
                    throw unknownOption("--" + name, options: options)
                }
                if let inlineValue, inlineValue.isEmpty, option.kind != .flag {
                    throw UsageError("missing value for '--\(name)'")
                }
                try record(option, value: inlineValue, spelled: "--" + name)
            } else if isShortOptionWord(word, options: options) {
                try parseShortCluster(word, options: options, record: record)
            } else {
                positionals.append(word)
            }
            index += 1
        }
        result.argumentValues = try assign(positionals, to: signature.arguments)
        return result
    }

    /// Short options: `-o FILE`, `-oFILE`, `-qv` (flags), `-qo FILE`.
    private static func parseShortCluster(
        _ word: String, options: [OptionSpec], record: (OptionSpec, String?, String) throws -> Void
    ) throws {
        var letters = Substring(word.dropFirst())
        while let letter = letters.first {
            letters = letters.dropFirst()
            guard let option = options.first(where: { $0.short == letter }) else {
                throw unknownOption("-\(letter)", options: options)
            }
            if option.kind == .flag {
                try record(option, nil, "-\(letter)")
            } else {
                try record(option, letters.isEmpty ? nil : String(letters), "-\(letter)")
                return
            }
        }
    }

    /// True for `-x…` words that are not `-`, not `--`, and not negative numbers.
    private static func isShortOptionWord(_ word: String, options: [OptionSpec]) -> Bool {
        guard word.count >= 2, word.hasPrefix("-"), !word.hasPrefix("--") else { return false }
        let second = word[word.index(after: word.startIndex)]
        let isNumber = second.isNumber || second == "."
        return !isNumber || options.contains { $0.short == second }
    }

    /// Whether a word would be read as an option rather than as the value of the previous option.
    private static func looksLikeOption(_ word: String, options: [OptionSpec]) -> Bool {
        word.hasPrefix("--") || isShortOptionWord(word, options: options)
    }

    /// Distributes positional words over the declared arguments.
    private static func assign(_ words: [String], to arguments: [ArgumentSpec]) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        var rest = words[...]
        for (position, argument) in arguments.enumerated() {
            let neededLater = arguments[(position + 1)...].map(\.minimumCount).reduce(0, +)
            let available = max(0, rest.count - neededLater)
            let take: Int
            switch argument.arity {
            case .required, .optional: take = min(1, available)
            case .oneOrMore, .zeroOrMore: take = available
            }
            if take < argument.minimumCount {
                throw UsageError("missing argument <\(argument.name)>")
            }
            if take > 0 { result[argument.name] = Array(rest.prefix(take)) }
            rest = rest.dropFirst(take)
        }
        if let extra = rest.first {
            throw UsageError("unexpected argument '\(extra)'")
        }
        return result
    }

    /// `unknown option '--vocie' (did you mean '--voice'?)`.
    private static func unknownOption(_ spelled: String, options: [OptionSpec]) -> UsageError {
        let candidates = options.map(\.longSpelling)
        if let guess = Suggestion.closest(to: spelled, among: candidates) {
            return UsageError("unknown option '\(spelled)' (did you mean '\(guess)'?)")
        }
        return UsageError("unknown option '\(spelled)'")
    }
}
