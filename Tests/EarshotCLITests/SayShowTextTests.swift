import EarshotAudio
import Foundation
import Testing

/// `earshot say --show-text` and the words `say` gives espeak-ng: normalized, then the Voices folder's
/// pronunciations; the built executable with the real espeak-ng.
@Suite struct SayShowTextTests {
    func earshot(_ arguments: String...) throws -> RunResult {
        try #require(EarshotBinary.path != nil, "the earshot executable is built next to the tests")
        return try EarshotBinary.run(arguments)
    }

    /// A Voices folder with the package's profiles and `pronunciations` holding `text`.
    func voicesCopy(pronunciations text: String) throws -> OutputFolder {
        let folder = try OutputFolder()
        for file in try FileManager.default.contentsOfDirectory(atPath: voicesFolder) where file.hasSuffix(".voice") {
            try FileManager.default.copyItem(atPath: voicesFolder + "/" + file, toPath: folder.path + "/" + file)
        }
        try text.write(toFile: folder.path + "/pronunciations", atomically: true, encoding: .utf8)
        return folder
    }

    @Test func showTextPrintsWhatEspeakWouldSayAndSpeaksNothing() throws {
        let result = try earshot(
            "say", "--device", "earshot-no-such-device", "--show-text", "Shipping $12.00. Total $61.99.")
        #expect(result.status == 0, "stderr: \(result.error)")
        #expect(result.output == "Shipping 12 dollars. Total 61 dollars and 99 cents.\n")
    }

    @Test func theVoicesFoldersPronunciationsApplyAfterNormalization() throws {
        let folder = try voicesCopy(pronunciations: "# brands\nEarshot = ear shot\n/(\\d+) dollars/ = $1 bucks\n")
        defer { folder.remove() }
        let result = try earshot("say", "--voices", folder.path, "--show-text", "Earshot costs $5")
        #expect(result.status == 0, "stderr: \(result.error)")
        #expect(result.output == "ear shot costs 5 bucks\n")
    }

    @Test func aMalformedPronunciationFileIsAnErrorAtItsLine() throws {
        let folder = try voicesCopy(pronunciations: "Earshot = ear shot\nEarshot ear shot\n")
        defer { folder.remove() }
        let result = try earshot("say", "--voices", folder.path, "--show-text", "Earshot")
        #expect(result.status != 0)
        #expect(result.output.isEmpty)
        #expect(result.error.contains("\(folder.path)/pronunciations:2:17: error: expected '='"), "\(result.error)")
    }

    @Test func sayingThePostedTextSoundsExactlyLikeSayingItsShownText() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let posted = "Shipping $12.00. Total $61.99."
        #expect(try earshot("say", "-o", folder.path + "/posted.wav", posted).status == 0)
        let shown = try earshot("say", "--show-text", posted).output.trimmingCharacters(in: .newlines)
        #expect(try earshot("say", "-o", folder.path + "/shown.wav", shown).status == 0)
        let postedAudio = try WAVFile.read(path: folder.path + "/posted.wav")
        let shownAudio = try WAVFile.read(path: folder.path + "/shown.wav")
        #expect(postedAudio.samples == shownAudio.samples)
    }
}
