import EarshotCore
import Testing

@testable import EarshotCLI
@testable import EarshotReport

@Suite("Argument parser")
struct ArgumentParserTests {
    static let signature = CommandSignature(
        name: "demo", summary: "A command for parser tests.",
        arguments: [ArgumentSpec("text", arity: .oneOrMore, help: "Words.")],
        options: [
            .value("voice", valueName: "name", help: "A voice.", defaultValue: "default"),
            .value("output", short: "o", valueName: "file", help: "An output."),
            .flag("quiet", short: "q", help: "Say less."),
            .flag("verbose", short: "v", help: "Say more."),
            .repeated("tag", short: "t", valueName: "tag", help: "A tag."),
        ])

    func parse(_ words: [String]) throws -> ParsedArguments {
        try ArgumentParser.parse(words, for: Self.signature)
    }

    @Test(arguments: [["--voice", "expert", "hi"], ["--voice=expert", "hi"], ["hi", "--voice", "expert"]])
    func aLongOptionTakesTheNextWordOrTheTextAfterTheEqualsSign(words: [String]) throws {
        let parsed = try parse(words)
        #expect(parsed.value("voice") == "expert")
        #expect(parsed.arguments("text") == ["hi"])
    }

    @Test(arguments: [["-o", "out.wav", "hi"], ["-oout.wav", "hi"], ["--output", "out.wav", "hi"]])
    func aShortOptionTakesTheNextWordOrTheAttachedRest(words: [String]) throws {
        #expect(try parse(words).value("output") == "out.wav")
    }

    @Test func shortFlagsClusterAndMayEndWithAnOptionTakingAValue() throws {
        let parsed = try parse(["-qvo", "x.wav", "hi"])
        #expect(parsed.flag("quiet"))
        #expect(parsed.flag("verbose"))
        #expect(parsed.value("output") == "x.wav")
        #expect(try parse(["hi"]).flag("quiet") == false)
    }

    @Test func aRepeatedOptionCollectsEveryValueInOrder() throws {
        let parsed = try parse(["--tag", "a", "hi", "-t", "b", "--tag=c"])
        #expect(parsed.values("tag") == ["a", "b", "c"])
        #expect(parsed.arguments("text") == ["hi"])
    }

    @Test func doubleDashEndsOptionsSoLaterWordsArePositional() throws {
        let parsed = try parse(["--quiet", "--", "--voice", "-o", "--"])
        #expect(parsed.arguments("text") == ["--voice", "-o", "--"])
        #expect(parsed.value("voice") == nil)
    }

    @Test func negativeNumbersAndALoneDashArePositional() throws {
        #expect(try parse(["-5", "degrees", "-0.5", "-"]).arguments("text") == ["-5", "degrees", "-0.5", "-"])
    }

    @Test func helpAnywhereBeforeDoubleDashWinsOverOtherMistakes() throws {
        #expect(try parse(["--bogus", "--help"]).helpRequested)
        #expect(try parse(["-h"]).helpRequested)
        #expect(try parse(["--", "--help"]).helpRequested == false)
    }

    @Test(arguments: [
        (["--vocie", "x"], "unknown option '--vocie' (did you mean '--voice'?)"),
        (["--ouput=a.wav", "x"], "unknown option '--ouput' (did you mean '--output'?)"),
        (["--zzzzzz", "x"], "unknown option '--zzzzzz'"),
        (["-x", "hi"], "unknown option '-x'"),
        (["hi", "--voice"], "missing value for '--voice'"),
        (["--voice", "--quiet", "hi"], "missing value for '--voice'"),
        (["--voice=", "hi"], "missing value for '--voice'"),
        (["hi", "-o"], "missing value for '-o'"),
        (["--quiet=yes", "hi"], "option '--quiet' does not take a value"),
        (["--voice", "a", "--voice", "b", "hi"], "option '--voice' given more than once"),
        ([], "missing argument <text>"),
        (["--quiet"], "missing argument <text>"),
    ])
    func badWordsGiveAnErrorNamingTheWord(words: [String], message: String) {
        let error = #expect(throws: UsageError.self) { try parse(words) }
        #expect(error?.message == message)
    }

    @Test func wordsBeyondTheDeclaredArgumentsAreUnexpected() {
        let signature = CommandSignature(
            name: "one", summary: "", arguments: [ArgumentSpec("file", help: "A file.")])
        let error = #expect(throws: UsageError.self) {
            try ArgumentParser.parse(["a.txt", "x"], for: signature)
        }
        #expect(error?.message == "unexpected argument 'x'")
        let none = CommandSignature(name: "none", summary: "")
        #expect(throws: UsageError("unexpected argument 'x'")) { try ArgumentParser.parse(["x"], for: none) }
    }

    @Test func aVariadicArgumentLeavesWhatLaterArgumentsNeed() throws {
        let signature = CommandSignature(
            name: "copy", summary: "",
            arguments: [
                ArgumentSpec("first", help: ""), ArgumentSpec("middle", arity: .zeroOrMore, help: ""),
                ArgumentSpec("last", help: ""), ArgumentSpec("extra", arity: .optional, help: ""),
            ])
        let parsed = try ArgumentParser.parse(["a", "b", "c", "d"], for: signature)
        #expect(parsed.argument("first") == "a")
        #expect(parsed.arguments("middle") == ["b", "c"])
        #expect(parsed.argument("last") == "d")
        #expect(parsed.argument("extra") == nil)
        let short = try ArgumentParser.parse(["a", "z"], for: signature)
        #expect(short.arguments("middle").isEmpty)
        #expect(short.argument("last") == "z")
    }

    @Test func theUsageLineAndHelpAreGeneratedFromTheSignature() {
        #expect(
            Self.signature.usageLine()
                == "earshot demo <text>... [--voice <name>] [-o <file>] [-q] [-v] [-t <tag> ...]")
        let help = Self.signature.helpText()
        #expect(help.hasPrefix("OVERVIEW: A command for parser tests.\n"))
        #expect(help.contains("USAGE: earshot demo <text>..."))
        #expect(help.contains("  --voice <name>" + String(repeating: " ", count: 7) + "A voice. (default: default)\n"))
        #expect(help.contains("  -o, --output <file>"))
        #expect(help.contains("  -h, --help"))
    }

    @Test(
        arguments: [
            ("--vocie", "--voice"), ("--voise", "--voice"), ("--devcie", "--device"), ("--v", nil),
            ("--colour", nil), ("sya", nil),
        ] as [(String, String?)])
    func suggestionsCatchTyposButNotUnrelatedWords(word: String, expected: String?) {
        #expect(Suggestion.closest(to: word, among: ["--voice", "--voices", "--device", "--output"]) == expected)
    }

    @Test func editDistanceCountsASwappedPairAsOneEdit() {
        #expect(Spelling.distance("vocie", "voice") == 1)
        #expect(Spelling.distance("", "abc") == 3)
        #expect(Spelling.distance("kitten", "sitting") == 3)
    }
}
