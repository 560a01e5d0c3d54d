import EarshotCore
import Testing

@testable import EarshotScript

/// Script and voice file bytes: UTF-8 with or without a byte order mark, any line ending; anything else is
/// an error at the first bad byte's line and column.
@Suite struct SourceTextTests {
    static let script =
        "title \"T\"\npattern custom p\nvariant before\nscreen S\n  button ok \"Café\"\nat 0s focus ok\n"

    static func bytes(_ text: String, lineEnding: String = "\n", bom: Bool = false) -> [UInt8] {
        (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.replacingOccurrences(of: "\n", with: lineEnding).utf8)
    }

    @Test(
        "every line ending, with and without a byte order mark, gives the same script",
        arguments: [("\n", false), ("\r\n", false), ("\r\n", true), ("\n", true), ("\r", false)])
    func lineEndingsAndByteOrderMarkAreAccepted(lineEnding: String, bom: Bool) throws {
        let document = try ScenarioParser.parse(
            bytes: Self.bytes(Self.script, lineEnding: lineEnding, bom: bom), path: "x.earshot")
        #expect(document.header.title == "T")
        #expect(document.screens.first?.elements.first?.label == "Café")
        #expect(document.timeline.first?.location.line == 6)
    }

    @Test(
        "the first byte that is not UTF-8 is located",
        arguments: [
            // (bytes replacing the "é" of line 5, line, column, byte)
            ([0xFF], 5, 17, 0xFF),
            ([0xC3], 5, 17, 0xC3),  // a lead byte without its continuation
            ([0x80], 5, 17, 0x80),  // a continuation byte alone
            ([0xED, 0xA0, 0x80], 5, 17, 0xED),  // an encoded surrogate
            ([0xC0, 0xAF], 5, 17, 0xC0),  // an overlong "/"
        ] as [([UInt8], Int, Int, UInt8)])
    func invalidUTF8IsALocatedError(bad: [UInt8], line: Int, column: Int, byte: UInt8) throws {
        for (lineEnding, bom) in [("\n", false), ("\r\n", true)] {
            let good = Self.bytes(Self.script, lineEnding: lineEnding, bom: bom)
            let cafe = Array("é".utf8)
            let at = try #require(good.indices.first { Array(good[$0...].prefix(2)) == cafe })
            let bytes = Array(good[..<at]) + bad + Array(good[(at + 2)...])
            do {
                _ = try ScenarioParser.parse(bytes: bytes, path: "x.earshot")
                Issue.record("invalid UTF-8 must not parse")
            } catch {
                let diagnostic = try #require(error.diagnostics.first)
                #expect(error.diagnostics.count == 1)
                #expect(diagnostic.location == SourceLocation(path: "x.earshot", line: line, column: column))
                #expect(diagnostic.message == "not valid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true)))")
                #expect(diagnostic.sourceLine == "  button ok \"Caf")
            }
        }
    }

    @Test func aBadByteOnTheFirstLineIsAtColumnOne() throws {
        #expect(throws: SourceText.InvalidByte(line: 1, column: 1, byte: 0xFE, sourceLine: "")) {
            try SourceText.decode([0xFE, 0x41])
        }
        #expect(try SourceText.decode([0xEF, 0xBB, 0xBF, 0x41]) == "A")
        #expect(try SourceText.decode([]) == "")
    }

    static let voice = "# A voice\nespeak en-gb\nrate 220\ndescription \"Ça va\"\n"

    @Test(
        "voice files accept every line ending and a byte order mark",
        arguments: [("\n", false), ("\r\n", false), ("\r\n", true), ("\r", false)])
    func voiceFilesAcceptCRLFAndByteOrderMark(lineEnding: String, bom: Bool) throws {
        let profile = try VoiceFile.parse(
            bytes: Self.bytes(Self.voice, lineEnding: lineEnding, bom: bom), name: "v", path: "v.voice")
        #expect(profile == VoiceProfile(name: "v", espeakVoice: "en-gb", rate: 220, description: "Ça va"))
    }

    @Test func aCRLFVoiceFileStillReportsErrorsAtTheirColumn() throws {
        #expect(
            throws: VoiceFileError(
                path: "v.voice", line: 2, column: 6, message: "'rate' must be a whole number, found 'fast'",
                sourceLine: "rate fast")
        ) {
            try VoiceFile.parse(
                bytes: Self.bytes("espeak en-us\nrate fast\n", lineEnding: "\r\n"), name: "v", path: "v.voice")
        }
    }

    @Test func invalidUTF8InAVoiceFileIsALocatedError() throws {
        let bytes = Array("espeak en-us\r\ndescription \"Ça".utf8) + [0xFF, 0x22, 0x0A]
        do {
            _ = try VoiceFile.parse(bytes: bytes, name: "v", path: "v.voice")
            Issue.record("invalid UTF-8 must not parse")
        } catch {
            #expect(error.line == 2 && error.column == 16)
            #expect(error.description.hasPrefix("v.voice:2:16: error: not valid UTF-8 (byte 0xFF)"))
        }
    }
}
