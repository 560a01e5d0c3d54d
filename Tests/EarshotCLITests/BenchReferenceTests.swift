import EarshotBench
import EarshotCore
import EarshotSystem
import Foundation
import Testing

/// The two children behind `earshot bench`'s reference: the heard phrases of a run, and plain espeak-ng
/// speaking them.
@Suite("bench reference")
struct BenchReferenceTests {
    static func scratchFile(_ name: String) -> String {
        NSTemporaryDirectory() + "earshot-bench-ref-\(UUID().uuidString)-" + name
    }

    /// The cart confirmation is cut after "Added" by the badge's own announcement, heard in full: the list
    /// holds what was heard of each utterance, never the lost words.
    @Test func theHeardPhrasesAreWhatTheRunMadeHeard() throws {
        try #require(EarshotBinary.path != nil, "the earshot executable is built next to the tests")
        let list = Self.scratchFile("cart.phrases")
        defer { try? FileManager.default.removeItem(atPath: list) }
        let script = packageRoot + "/Scripts/announcement-spam/before-cart.earshot"
        let result = try EarshotBinary.run(["bench", "--heard-phrases", list, script])
        #expect(result.status == 0, "stderr: \(result.error)")
        let phrases = try PhraseList(parsing: String(contentsOfFile: list, encoding: .utf8), path: list).phrases
        let texts = phrases.map(\.text)
        #expect(texts == ["Add to cart, button", "Added", "Cart updated, 3 items", "Cart, button"])
        #expect(phrases.allSatisfy { $0.voice.espeakVoice == VoiceProfile.standard.espeakVoice })
    }

    @Test func theRawReferenceSpeaksEveryPhraseInFull() throws {
        try #require(EarshotBinary.path != nil, "the earshot executable is built next to the tests")
        let texts = ["Pay now, button", "Results updated"]
        let list = Self.scratchFile("two.phrases")
        defer { try? FileManager.default.removeItem(atPath: list) }
        try PhraseList(texts.map { PhraseList.Phrase(text: $0, voice: .standard) }).text
            .write(toFile: list, atomically: true, encoding: .utf8)
        let result = try EarshotBinary.run(["bench", "--raw", list], withVoices: false)
        #expect(result.status == 0, "stderr: \(result.error)")
        let words = result.output.split(separator: " ")
        #expect(words.first == "2" && result.output.hasSuffix("frames at 22050 Hz\n"), "\(result.output)")
        let frames = try #require(Int(words[2]))
        // The same phrases from Earshot's isolated synthesizer: raw espeak-ng's lengths drift with what it said
        // before (the reason Earshot isolates), so they agree within a fifth, not to the frame.
        let synthesizer = try EspeakSynthesizer.shared()
        let isolated = try texts.map { try synthesizer.synthesize($0, voice: .standard).frameCount }.reduce(0, +)
        #expect(
            Double(frames) > Double(isolated) * 0.8 && Double(frames) < Double(isolated) * 1.2,
            "\(frames) vs \(isolated)")
    }

    @Test(arguments: [
        ("en-us\t\tfast\t50\t100\t0\tHello\n", "1: not a phrase line"),
        ("nosuchvoice\t\t185\t50\t100\t0\tHello\n", "nosuchvoice"),
    ])
    func aBrokenListFailsNamingTheProblem(text: String, message: String) throws {
        try #require(EarshotBinary.path != nil, "the earshot executable is built next to the tests")
        let list = Self.scratchFile("broken.phrases")
        defer { try? FileManager.default.removeItem(atPath: list) }
        try text.write(toFile: list, atomically: true, encoding: .utf8)
        let result = try EarshotBinary.run(["bench", "--raw", list], withVoices: false)
        #expect(result.status != 0)
        #expect(result.error.contains(message), "stderr: \(result.error)")
        #expect(result.output.isEmpty)
    }
}
