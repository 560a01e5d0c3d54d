/// One named option a command accepts: a boolean flag, an option with a value, or a repeatable one.
///
/// Options are spelled `--long`, optionally also `-s`. Values come as `--long value`,
/// `--long=value`, `-s value` or `-svalue`.
public struct OptionSpec: Hashable, Sendable {
    /// What the option carries.
    public enum Kind: Hashable, Sendable {
        /// Present or absent; takes no value.
        case flag
        /// Takes one value; giving it twice is an error.
        case single(valueName: String)
        /// Takes one value each time; may be given any number of times.
        case repeated(valueName: String)
    }

    /// The long name without dashes, for example `voice`.
    public var long: String
    /// The one-character short name without the dash, for example `o`.
    public var short: Character?
    /// What the option carries.
    public var kind: Kind
    /// One line for `--help`.
    public var help: String
    /// The default shown in `--help`, if any; the command applies it.
    public var defaultValue: String?

    /// A boolean flag such as `--quiet`.
    public static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, kind: .flag, help: help)
    }

    /// An option with one value such as `--voice <name>`.
    public static func value(
        _ long: String, short: Character? = nil, valueName: String, help: String, defaultValue: String? = nil
    ) -> OptionSpec {
        OptionSpec(
            long: long, short: short, kind: .single(valueName: valueName), help: help, defaultValue: defaultValue)
    }

    /// An option that may be given several times such as `--check <name>`.
    public static func repeated(
        _ long: String, short: Character? = nil, valueName: String, help: String
    ) -> OptionSpec {
        OptionSpec(long: long, short: short, kind: .repeated(valueName: valueName), help: help)
    }

    /// Creates an option.
    public init(long: String, short: Character? = nil, kind: Kind, help: String, defaultValue: String? = nil) {
        self.long = long
        self.short = short
        self.kind = kind
        self.help = help
        self.defaultValue = defaultValue
    }

    /// `--voice`.
    public var longSpelling: String { "--" + long }

    /// The value placeholder, nil for flags.
    public var valueName: String? {
        switch kind {
        case .flag: nil
        case .single(let name), .repeated(let name): name
        }
    }

    /// `-o, --output <file.wav>` for the help listing.
    var helpLabel: String {
        let names = short.map { "-\($0), " + longSpelling } ?? longSpelling
        return valueName.map { "\(names) <\($0)>" } ?? names
    }

    /// `[-o <file.wav>]` (short form preferred) for the usage line.
    var usageFragment: String {
        let name = short.map { "-\($0)" } ?? longSpelling
        switch kind {
        case .flag: return "[\(name)]"
        case .single(let value): return "[\(name) <\(value)>]"
        case .repeated(let value): return "[\(name) <\(value)> ...]"
        }
    }
}

/// One positional argument a command accepts.
public struct ArgumentSpec: Hashable, Sendable {
    /// How many words the argument takes.
    public enum Arity: Hashable, Sendable {
        /// Exactly one.
        case required
        /// Zero or one.
        case optional
        /// One or more (only the last argument may be variadic).
        case oneOrMore
        /// Zero or more (only the last argument may be variadic).
        case zeroOrMore
    }

    /// The argument's name, shown as `<name>`.
    public var name: String
    /// How many words it takes.
    public var arity: Arity
    /// One line for `--help`.
    public var help: String

    /// Creates an argument.
    public init(_ name: String, arity: Arity = .required, help: String) {
        self.name = name
        self.arity = arity
        self.help = help
    }

    /// `<text>...`, `[<file>]` for the usage line.
    var usageFragment: String {
        switch arity {
        case .required: "<\(name)>"
        case .optional: "[<\(name)>]"
        case .oneOrMore: "<\(name)>..."
        case .zeroOrMore: "[<\(name)>...]"
        }
    }

    /// The fewest words the argument needs.
    var minimumCount: Int {
        switch arity {
        case .required, .oneOrMore: 1
        case .optional, .zeroOrMore: 0
        }
    }
}

/// What a command accepts and how to describe it: the parser's input and the source of `--help`.
///
/// Every command also accepts `-h`/`--help`, which the parser adds itself.
public struct CommandSignature: Hashable, Sendable {
    /// The subcommand word, for example `say`.
    public var name: String
    /// One line for `earshot --help` and the top of the command's help.
    public var summary: String
    /// Paragraphs shown after the summary in the command's help, if any.
    public var discussion: String?
    /// Positional arguments in order.
    public var arguments: [ArgumentSpec]
    /// Named options.
    public var options: [OptionSpec]
    /// Example invocations shown at the end of the help, without the leading `earshot`.
    public var examples: [String]

    /// Creates a signature.
    public init(
        name: String, summary: String, discussion: String? = nil, arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [], examples: [String] = []
    ) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.examples = examples
    }

    /// The built-in help flag every command accepts.
    static let helpOption = OptionSpec.flag("help", short: "h", help: "Show this help and exit.")

    /// The command's options plus `--help`.
    var allOptions: [OptionSpec] { options + [Self.helpOption] }

    /// `earshot say <text>... [--voice <name>] [-o <file.wav>]`.
    public func usageLine(program: String = "earshot") -> String {
        ([program, name] + arguments.map(\.usageFragment) + options.map(\.usageFragment)).joined(separator: " ")
    }

    /// The full `--help` text, ending in a newline.
    public func helpText(program: String = "earshot") -> String {
        var text = "OVERVIEW: \(summary)\n"
        if let discussion { text += "\n\(discussion)\n" }
        text += "\nUSAGE: \(usageLine(program: program))\n"
        let argumentRows = arguments.map { ("<\($0.name)>", $0.help) }
        let optionRows = allOptions.map { option in
            (option.helpLabel, option.help + (option.defaultValue.map { " (default: \($0))" } ?? ""))
        }
        let width = (argumentRows + optionRows).map(\.0.count).max() ?? 0
        func table(_ rows: [(String, String)]) -> String {
            rows.map { label, help in
                "  " + label + String(repeating: " ", count: width - label.count + 2) + help + "\n"
            }.joined()
        }
        if !argumentRows.isEmpty { text += "\nARGUMENTS:\n" + table(argumentRows) }
        text += "\nOPTIONS:\n" + table(optionRows)
        if !examples.isEmpty {
            text += "\nEXAMPLES:\n" + examples.map { "  \(program) \($0)\n" }.joined()
        }
        return text
    }
}
