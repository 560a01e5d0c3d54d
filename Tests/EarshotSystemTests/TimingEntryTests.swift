import EarshotCore
import Foundation
import Testing

@testable import EarshotSystem

/// The phrase cache's timing entries: filed under everything the timing depends on, read back exactly, and a
/// damaged one is a miss the audit names.
@Suite struct TimingEntryTests {
    static let identity = PhraseCache.Identity(
        engineVersion: "1.51", normalizerVersion: TextNormalizer.version, variantsFingerprint: "", sampleRate: 22_050)

    static func speechText(_ text: String) -> SpeechText {
        TextNormalizer(settings: VoiceProfile.standard.text).speechText(for: text)
    }

    @Test func aTimingIsFiledUnderItsPostedTextItsMappingAndTheAlignment() throws {
        let money = Self.speechText("Total $12.00")
        let spokenAlike = SpeechText(verbatim: money.spoken)
        #expect(money.spoken == spokenAlike.spoken && money.posted != spokenAlike.posted)
        let key = PhraseKey.timing(of: money, voice: .standard, identity: Self.identity)
        #expect(key == PhraseKey.timing(of: Self.speechText("Total $12.00"), voice: .standard, identity: Self.identity))
        #expect(key.fileName != PhraseKey.timing(of: spokenAlike, voice: .standard, identity: Self.identity).fileName)
        let phrase = PhraseKey(text: money.spoken, voice: .standard, identity: Self.identity)
        #expect(key.fileName != phrase.fileName, "a timing must not share a file with the phrase's audio")
        #expect(key.canonical.contains("alignment \(WordAlignment.version)"))
        var slower = VoiceProfile.standard
        slower.rate -= 10
        #expect(key.fileName != PhraseKey.timing(of: money, voice: slower, identity: Self.identity).fileName)
    }

    /// A key's bytes are what every earlier run filed its entries under: built another way, they must not change,
    /// or every cache on disk becomes misses (no test of a run would notice, only its speed).
    @Test func aKeysBytesAreTheLinesEntriesAreFiledUnder() throws {
        var voice = VoiceProfile.standard
        voice.espeakVoice = "en-gb"
        voice.variant = "f3"
        voice.rate = 200
        voice.pitch = 40
        voice.volume = 90
        voice.wordGap = 2
        let identity = PhraseCache.Identity(
            engineVersion: "1.51", normalizerVersion: 7, variantsFingerprint: "ab12", sampleRate: 22_050)
        let key = PhraseKey(text: "Hello, world", voice: voice, identity: identity)
        let lines = [
            "format \(PhraseCache.formatVersion)", "purpose phrase", "engine 1.51", "normalizer 7", "variants ab12",
            "sample-rate 22050", "voice en-gb", "variant f3", "rate 200", "pitch 40", "volume 90", "word-gap 2",
            "text Hello, world",
        ]
        #expect(key.canonical == lines.joined(separator: "\n"))
        let timing = PhraseKey(
            text: "Hi", voice: .standard, identity: identity, purpose: .timing, details: ["alignment 3", "posted Hi"])
        #expect(
            timing.canonical.contains("\nword-gap \(VoiceProfile.standard.wordGap)\nalignment 3\nposted Hi\ntext Hi"))
        #expect(timing.canonical.contains("\npurpose timing\n"))
        let filing = key.filing
        #expect(filing.canonical == key.canonical && filing.fileName == key.fileName)
        #expect(key.fileName == ContentHash.of(Array(key.canonical.utf8)) + ".phrase")
    }

    static let partial = SpeechTiming(
        text: "Order 1042 is ready.", frameCount: 9_000, sampleRate: 22_050,
        words: [WordBoundary(frame: 300, textRange: 0..<5), WordBoundary(frame: 6_100, textRange: 6..<10)],
        decidedFrames: 5_800)

    @Test(arguments: [false, true])
    func anEntryGivesBackTheTimingItWasMadeOf(complete: Bool) throws {
        var timing = Self.partial
        if complete {
            timing = SpeechTiming(
                text: timing.text, frameCount: 30_000, sampleRate: 22_050, words: timing.words)
        }
        let text = SpeechText(verbatim: timing.text)
        let key = PhraseKey.timing(of: text, voice: .standard, identity: Self.identity)
        let data = TimingEntry(key: key.canonical, timing: timing).encoded()
        let read = try #require(TimingEntry(decoding: data, key: key.canonical))
        #expect(read.timing(of: text) == timing)
        #expect(PhraseEntry.isWellFormed(data))
        #expect(TimingEntry(decoding: data, key: key.canonical + " ") == nil, "another key")
    }

    @Test func aDamagedTimingEntryIsAMissAndTheAuditNamesIt() throws {
        let folder = PhraseCacheTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let synthesizer = try SpeechFixtures.synthesizer()
        let cache = PhraseCache(
            base: synthesizer, identity: PhraseCacheTests.identity(synthesizer), folder: folder, warn: { _ in })
        let whole = SpeechText(verbatim: "Results updated")
        let broken = SpeechText(verbatim: Self.partial.text)
        cache.store(
            SpeechTiming(text: whole.posted, frameCount: 20_000, sampleRate: 22_050, words: []), of: whole,
            voice: .standard)
        cache.store(Self.partial, of: broken, voice: .standard)
        #expect(cache.timing(of: broken, voice: .standard, sampleRate: 22_050) == Self.partial)
        let brokenName = PhraseKey.timing(of: broken, voice: .standard, identity: cache.identity).fileName
        let path = folder + "/" + brokenName
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.dropLast(3).write(to: URL(fileURLWithPath: path))
        #expect(cache.timing(of: broken, voice: .standard, sampleRate: 22_050) == nil)
        #expect(cache.statistics.damaged == 1)
        #expect(cache.timing(of: whole, voice: .standard, sampleRate: 22_050)?.frameCount == 20_000)
        #expect(PhraseCache.Folder(path: folder).damagedEntries() == [brokenName])
    }
}
