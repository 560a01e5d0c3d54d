import EarshotTestSupport
import Foundation
import Synchronization
import Testing

@testable import EarshotScript

/// `PlainRegex` answers what ICU answers wherever it answers at all, and leaves the rest to ICU.
@Suite struct PlainRegexTests {
    /// What a check's pattern answers through ICU, as before `PlainRegex`.
    static func icuMatches(_ pattern: String, in text: String) -> Bool? {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else {
            return nil
        }
        return expression.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil
    }

    static let atoms = [
        "a", "b", "A", "B", "1", "9", " ", ",", ":", "-", "#", "é", "°", "x", ".", "\\d", "\\D", "\\s", "\\S", "\\w",
        "\\W", "\\.", "\\(", "\\-", "\\$", "[ab]", "[a-c]", "[0-9]", "[A-Z]", "[a-z0-9]", "[\\d,]", "[_a.]", "[\\s]",
        "[\\w#]", "(a|b)", "(?:ab|c)", "()", "(a|)", "(1|b|A)", "^", "$", "(", ")", "|", "[", "]", "{", "}",
    ]
    static let quantifiers = ["*", "+", "?", "{2}", "{1,}", "{0,2}", "{1,3}", "*?", "{2,1}", "++"]
    static let textPieces = [
        "a", "b", "A", "B", "1", "9", " ", ",", ":", "-", "#", "é", "°", "x", ".", "(", "_", "\t", "ab", "AB", "12",
        "$",
    ]

    @Test func generatedPatternsAndTextsGetICUsAnswers() {
        var random = SplitMix64(state: 0x5EED_0F_CA7E)
        var read = 0
        var compared = 0
        var matched = 0
        var disagreements: [String] = []
        for _ in 0..<4000 {
            var pattern = ""
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                pattern += Self.atoms.randomElement(using: &random) ?? ""
                if Int.random(in: 0..<10, using: &random) < 3 {
                    pattern += Self.quantifiers.randomElement(using: &random) ?? ""
                }
            }
            guard let plain = PlainRegex(pattern) else { continue }
            read += 1
            guard (try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive])) != nil else {
                disagreements.append("/\(pattern)/ is read but ICU rejects it")
                continue
            }
            for _ in 0..<12 {
                var text = ""
                for _ in 0..<Int.random(in: 0...8, using: &random) {
                    text += Self.textPieces.randomElement(using: &random) ?? ""
                }
                guard let answer = plain.matches(in: text) else { continue }
                compared += 1
                if answer { matched += 1 }
                if answer != Self.icuMatches(pattern, in: text) {
                    disagreements.append("/\(pattern)/ on \"\(text)\": \(answer), ICU \(!answer)")
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements: \(disagreements.prefix(8))")
        // The comparison covers much: most patterns read, both answers common.
        #expect(read > 1000, "patterns read: \(read)")
        #expect(matched > compared / 10 && matched < compared * 9 / 10, "\(matched) of \(compared) matched")
    }

    /// Every pattern of the shipped scripts is read (so checks of those scripts compile no ICU pattern), and
    /// answers as ICU on the texts they meet.
    @Test(arguments: [
        ("^\\d\\d:\\d\\d:\\d\\d$", "00:01:05", true), ("^\\d\\d:\\d\\d:\\d\\d$", "00:01:05, stopwatch", false),
        ("\\d+ results", "12 results", true), ("^\\d+ results$", "Results updated", false),
        ("^Arrives in, 11:\\d\\d$", "Arrives in, 11:59", true), ("on the way", "Your order is ON THE WAY", true),
        ("^Captions, switch button, (on|off)$", "Captions, switch button, off", true),
        ("^Captions, switch button, (on|off)$", "Captions, switch button, offline", false),
        ("80 °C", "Water at 80 °C", true), ("80 °C", "Water at 80 °F", false),
        ("^Loading orders", "Loading orders, in progress", true), ("Added to cart", "added to cart", true),
    ])
    func shippedPatternsAreReadAndAnswerAsICU(pattern: String, text: String, expected: Bool) throws {
        let plain = try #require(PlainRegex(pattern))
        #expect(plain.matches(in: text) == expected)
        #expect(Self.icuMatches(pattern, in: text) == expected)
    }

    @Test func everyPatternInTheShippedScriptsIsRead() throws {
        var patterns: Set<String> = []
        for script in ScenarioScriptsTests.scripts {
            let url = ScenarioScriptsTests.scriptsDirectory.appendingPathComponent(script)
            let text = try String(contentsOf: url, encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard let start = line.range(of: "matching \"") else { continue }
                let rest = line[start.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { continue }
                patterns.insert(String(rest[..<end]))
            }
        }
        #expect(patterns.count >= 10, "\(patterns)")
        for pattern in patterns.sorted() { #expect(PlainRegex(pattern) != nil, "/\(pattern)/") }
    }

    /// A long chain of optional parts (about 8,000 instructions, as many in one chain of jumps) is followed in a
    /// loop: matched on a thread with a 64 KB stack, it answers as ICU does.
    @Test func aLongChainOfOptionalPartsNeedsNoDeepStack() throws {
        let pattern = String(repeating: "(a?){99}", count: 40) + "b"
        let plain = try #require(PlainRegex(pattern))
        let answers = Mutex<[Bool?]>([])
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            answers.withLock { $0 = ["aaab", "aaa", "b"].map { plain.matches(in: $0) } }
            done.signal()
        }
        thread.stackSize = 64 << 10
        thread.start()
        done.wait()
        #expect(answers.withLock { $0 } == ["aaab", "aaa", "b"].map { Self.icuMatches(pattern, in: $0) })
    }

    /// Texts ICU could read differently: a line break, characters that change under case folding (Kelvin sign,
    /// sharp s, capital É), a non-ASCII digit, non-ASCII text under `\s` or `\w`.
    @Test(arguments: [
        ("k", "\u{212A}"), ("ss", "stra\u{00DF}e"), ("a$", "a\n"), ("a.b", "a\nb"), ("\\d", "\u{0663}"),
        ("é", "CAFÉ"), ("\\s", "a\u{00A0}b"), ("\\w", "é"), ("\\W", "°"), ("x", "x\u{2028}"),
    ])
    func textsICUMightReadDifferentlyAreLeftToIt(pattern: String, text: String) throws {
        let plain = try #require(PlainRegex(pattern))
        #expect(plain.matches(in: text) == nil)
        #expect(TextPatterns.matches(pattern, in: text) == Self.icuMatches(pattern, in: text))
    }

    /// Patterns outside the subset: look-around, back references, word boundaries, negated classes, lazy
    /// quantifiers, properties, POSIX classes, a literal that changes under case folding, counts past 100, and
    /// invalid ones.
    @Test(arguments: [
        "(?=a)b", "(a)\\1", "\\bcart\\b", "[^a]", "a*?", "a{2,1}", "[", "(a|b", "ß", "a{101}", "\\p{L}",
        "[[:alpha:]]", "", "a**", "*a", "[a-]", "[z-a]", "\\Q.\\E", "(?i)a", "x{,2}",
    ])
    func patternsOutsideTheSubsetAreLeftToICU(pattern: String) {
        #expect(PlainRegex(pattern) == nil)
        for text in ["a", "b", "cart", "aa", "ß", "x", "", "Cart: 2"] {
            #expect(TextPatterns.matches(pattern, in: text) == (Self.icuMatches(pattern, in: text) ?? false))
        }
    }
}
