import Foundation
import Testing

@testable import EarshotCore

/// The one JSON writer: indented documents (reports) and one-line values (JSON Lines).
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

    @Test func theOneLineFormHasNoSpacesAndKeepsMemberOrder() throws {
        let value = JSONValue.object([
            ("z", .int(Int64(3))), ("a", .strings(["x\u{08}\u{0C}", "/"])), ("n", .null), ("o", .object([])),
            ("e", .array([])), ("t", "text"),
        ])
        #expect(value.compact() == #"{"z":3,"a":["x\b\f","/"],"n":null,"o":{},"e":[],"t":"text"}"#)
        _ = try JSONSerialization.jsonObject(with: Data(value.compact().utf8))
    }
}
