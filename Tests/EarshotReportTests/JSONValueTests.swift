@testable import EarshotCore
import EarshotScript
import Foundation
import Testing

@testable import EarshotReport

/// The one JSON writer, and where a finding points in its script.
@Suite struct JSONValueTests {
    @Test func stringsAreEscapedAndTheOutputParsesBack() throws {
        let value = JSONValue.object([
            ("text", .string("say \"hi\"\\\n\t\u{01} — é 🎧")), ("n", .integer(-3)), ("t", .seconds(2.0100000001)),
            ("none", .null), ("list", .array([.bool(true), .bool(false)])), ("empty", .object([])),
        ])
        let text = value.rendered()
        #expect(text.contains(#""say \"hi\"\\\n\t\u0001 — é 🎧""#))
        #expect(text.contains("\"t\": 2.01,"))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(parsed["text"] as? String == "say \"hi\"\\\n\t\u{01} — é 🎧")
        #expect(parsed["n"] as? Int == -3)
        #expect(Array(parsed.keys).count == 6)
    }

    @Test(arguments: [(1.5, "1.5"), (2.0, "2"), (0.1234, "0.123"), (-0.0001, "0"), (Double.nan, "0")])
    func numbersKeepMillisecondsAndDropTrailingZeros(value: Double, text: String) {
        #expect(JSONValue.seconds(value).rendered() == text + "\n")
    }

    @Test func aFindingPointsAtTheLastTimedLineAtOrBeforeIt() throws {
        let source = """
            title "t"
            pattern announcement-spam
            variant before
            screen S
              button a "A"
            at 0s focus a
            at 2s activate a
            at 5s activate a
            """
        let document = try ScenarioParser.parse(source: source, path: "x.earshot")
        func finding(at seconds: Double) -> Finding {
            Finding(
                rule: "announcement-flood", impact: .serious, card: "announcement-spam", at: .seconds(seconds),
                message: "", occurrences: 1)
        }
        #expect(CheckReport.location(of: finding(at: 2.01), in: document).line == 7)
        #expect(CheckReport.location(of: finding(at: 2), in: document).line == 7)
        #expect(CheckReport.location(of: finding(at: 1.99), in: document).line == 6)
        #expect(CheckReport.location(of: finding(at: 9), in: document).line == 8)
    }
}
